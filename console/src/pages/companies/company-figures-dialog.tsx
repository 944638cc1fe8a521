import { useState } from "react";
import { useMutation, useQuery } from "../../api/hooks";
import { success } from "../../api/result";
import { Badge } from "../../components/badge";
import { Dialog } from "../../components/dialog";
import { Facts } from "../../components/facts";
import { Loading, Notice } from "../../components/notice";
import { StatCard } from "../../components/stat-card";
import { counted, number, percent, pesos } from "../../format";
import { CifrasEmpresaDocument, VerificarCuentaRetiroDocument } from "../../gql/graphql";
import { accountStanding, COMPANY_STATES, managerStanding } from "../../labels";
import { PeriodFigures } from "../my-company/company-figures";
import { recordFacts } from "../my-company/company-facts";
import { AccountParticulars } from "../payouts/payout-parts";

/**
 * A company's figures, its details and who manages it, as an administrator reviews it; and its
 * money: its balance, and the payout accounts it registered, which are verified here.
 */
export function CompanyFiguresDialog({ company, onClose }: { company: { id: number; nombre: string } | null; onClose: () => void }) {
  return (
    <Dialog open={company !== null} title={company?.nombre ?? ""} onClose={onClose} cancelLabel="Cerrar" wide actions={null}>
      {company && <Figures id={company.id} />}
    </Dialog>
  );
}

function Figures({ id }: { id: number }) {
  const { data, error, reload } = useQuery(CifrasEmpresaDocument, { id }, (result) => ({
    company: success(result.company),
    managers: success(result.companyManagers).data,
    trips: success(result.viajes).pagination.total,
    completed: success(result.completados).pagination.total,
    requests: success(result.solicitudes).pagination.total,
    figures: success(result.companyFigures),
    balance: success(result.companyBalance),
    accounts: success(result.payoutAccounts).data,
  }));
  const verify = useMutation(VerificarCuentaRetiroDocument, (result) => success(result.verifyPayoutAccount));
  const [verified, setVerified] = useState<string | null>(null);
  if (error) return <Notice kind="error">{error}</Notice>;
  if (!data) return <Loading />;
  const { company, managers, balance, accounts } = data;

  async function verifyAccount(account: { id: number }) {
    setVerified(null);
    const done = await verify.run({ cuenta_retiro_id: account.id });
    if (!done) return;
    setVerified(`Se verificó la cuenta ${done.descripcion}: ya puede recibir los retiros de ${company.nombre}.`);
    reload();
  }
  return (
    <>
      <section className="cifras" aria-label="Cifras de la empresa">
        <StatCard
          name="Conductores"
          value={number(company.conductores.length)}
          detail={`${counted(data.requests, "solicitud", "solicitudes")} por responder`}
        />
        <StatCard name="Viajes completados" value={number(data.completed)} detail={`De ${number(data.trips)} pedidos a sus conductores`} />
        <StatCard name="Parte de la comisión" value={percent(company.porcentaje_comision)} detail="En los viajes de sus conductores" />
        <StatCard
          name="Saldo por retirar"
          value={pesos(balance.disponible)}
          detail={`${pesos(balance.en_retiro)} en retiro · ${pesos(balance.total_retirado)} ya retirado`}
        />
      </section>
      <PeriodFigures label="Hoy" period={data.figures.hoy} heading="h3" />
      <PeriodFigures label="Este mes" period={data.figures.mes} heading="h3" />
      <Facts
        items={[
          ["Estado", [COMPANY_STATES[company.estado].label, company.motivo_rechazo].filter(Boolean).join(": ")],
          ...recordFacts(company),
        ]}
      />
      <h3>Gestores</h3>
      {managers.length === 0 ? (
        <p>La empresa no tiene gestores.</p>
      ) : (
        <ul className="actividad" aria-label="Gestores">
          {managers.map((manager) => (
            <li key={manager.id}>
              <span>
                {manager.nombre} {manager.apellido}
              </span>
              <span className="tabla__secundario">
                {manager.email} · {manager.telefono} · {managerStanding(manager.es_verificado).label.toLowerCase()}
              </span>
            </li>
          ))}
        </ul>
      )}
      <h3>Cuentas de retiro</h3>
      <Notice kind="exito">{verified}</Notice>
      <Notice kind="error">{verify.error}</Notice>
      {accounts.length === 0 ? (
        <p>La empresa no ha registrado cuentas de retiro.</p>
      ) : (
        <>
          <p className="campo__ayuda">
            Verifica una cuenta cuando hayas confirmado que es de la empresa: solo entonces recibe sus retiros.
          </p>
          <ul className="actividad" aria-label="Cuentas de retiro">
            {accounts.map((account) => {
              const standing = accountStanding(account.verificada);
              return (
                <li key={account.id} className="tarjeta__cabecera">
                  <span>
                    {account.descripcion} <Badge tone={standing.tone}>{standing.label}</Badge>
                    <AccountParticulars account={account} />
                  </span>
                  {!account.verificada && (
                    <button
                      type="button"
                      className="boton boton--compacto"
                      disabled={verify.running}
                      onClick={() => verifyAccount(account)}
                    >
                      Verificar<span className="solo-lector"> {account.descripcion}</span>
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </>
  );
}
