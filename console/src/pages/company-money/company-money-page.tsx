import { useMemo, useState } from "react";
import { useMutation, useQuery } from "../../api/hooks";
import { type Success, success } from "../../api/result";
import { Badge } from "../../components/badge";
import { ConfirmDialog } from "../../components/confirm-dialog";
import { type Column, DataTable } from "../../components/data-table";
import { Loading, Notice } from "../../components/notice";
import { PagedList } from "../../components/paged-list";
import { PageHeader } from "../../components/page-header";
import { StatCard } from "../../components/stat-card";
import { useList } from "../../components/use-list";
import { dateTime, percent, pesos } from "../../format";
import {
  CancelarRetiroDocument,
  CuentasMiEmpresaDocument,
  type CuentasMiEmpresaQuery,
  MovimientosMiEmpresaDocument,
  type MovimientosMiEmpresaQuery,
  type OrdenMovimientos,
  type OrdenRetiros,
  QuitarCuentaRetiroDocument,
  RetirosMiEmpresaDocument,
  type RetirosMiEmpresaQuery,
  SaldoMiEmpresaDocument,
} from "../../gql/graphql";
import { accountStanding, LEDGER_CONCEPTS } from "../../labels";
import { AccountParticulars, PayoutState } from "../payouts/payout-parts";
import { AddAccountDialog } from "./add-account-dialog";
import { RequestPayoutDialog } from "./request-payout-dialog";

type Movement = Success<MovimientosMiEmpresaQuery["companyMovements"]>["items"][number];
type Payout = Success<RetirosMiEmpresaQuery["payouts"]>["items"][number];
type Account = Success<CuentasMiEmpresaQuery["payoutAccounts"]>["data"][number];

/** An amount in the company's favour with its sign, one against it with its own. */
const signed = (monto: number) => (monto > 0 ? `+${pesos(monto)}` : pesos(monto));

// Few columns, so that what matters (the amount) shows on a phone without scrolling the table sideways.
const MOVEMENT_COLUMNS: Column<Movement>[] = [
  {
    header: "Movimiento",
    sort: "id",
    cell: (line) => (
      <>
        {LEDGER_CONCEPTS[line.concepto]}
        <span className="tabla__secundario">
          {line.descripcion} · {dateTime(line.fecha)}
        </span>
      </>
    ),
  },
  { header: "Viaje", kind: "clave", cell: (line) => (line.viaje_id ? `#${line.viaje_id}` : "—") },
  { header: "Monto", sort: "monto", kind: "numero", cell: (line) => signed(line.monto) },
];

/**
 * A manager's side of the company's money: its balance, the movements that make it (its share of
 * each trip of its drivers, its payouts), where it is paid, and the payouts it asks for.
 */
export function CompanyMoneyPage() {
  const balance = useQuery(SaldoMiEmpresaDocument, {}, (result) => ({
    ...success(result.companyBalance),
    porcentaje_comision: success(result.myCompany).porcentaje_comision,
  }));
  const payoutList = useList({ filters: {}, sort: "id" as OrdenRetiros, order: "desc" });
  const payouts = useQuery(
    RetirosMiEmpresaDocument,
    { page: payoutList.page, per_page: 10, sort: payoutList.sorting.sort, order: payoutList.sorting.order },
    (result) => success(result.payouts),
  );
  const accounts = useQuery(CuentasMiEmpresaDocument, {}, (result) => success(result.payoutAccounts).data);
  const movementList = useList({ filters: {}, sort: "id" as OrdenMovimientos, order: "desc" });
  const movements = useQuery(
    MovimientosMiEmpresaDocument,
    { page: movementList.page, per_page: 20, sort: movementList.sorting.sort, order: movementList.sorting.order },
    (result) => success(result.companyMovements),
  );
  const cancel = useMutation(CancelarRetiroDocument, (result) => success(result.cancelPayout));
  const remove = useMutation(QuitarCuentaRetiroDocument, (result) => success(result.removePayoutAccount));
  const [adding, setAdding] = useState(false);
  const [requesting, setRequesting] = useState(false);
  const [cancelling, setCancelling] = useState<Payout | null>(null);
  const [removing, setRemoving] = useState<Account | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const verified = useMemo(() => (accounts.data ?? []).filter((account) => account.verificada), [accounts.data]);

  /** After an action: what it did, and the lists it changed read again. */
  function finished(message: string, changed: { reload: () => void }[]) {
    setAdding(false);
    setRequesting(false);
    setCancelling(null);
    setRemoving(null);
    setDone(message);
    for (const query of changed) query.reload();
  }
  // Asking for a payout or cancelling one moves the balance, and posts a movement.
  const moneyMoved = (message: string) => finished(message, [balance, payouts, movements]);

  function open(action: () => void) {
    setDone(null);
    cancel.clearError();
    remove.clearError();
    action();
  }

  // Three columns, so that a phone shows the action too.
  const payoutColumns: Column<Payout>[] = [
    {
      header: "Retiro",
      sort: "id",
      cell: (payout) => (
        <>
          {pesos(payout.monto)}
          <span className="tabla__secundario">
            #{payout.id} · {dateTime(payout.solicitado_en)} · {payout.cuenta.descripcion}
          </span>
        </>
      ),
    },
    { header: "Estado", sort: "estado", cell: (payout) => <PayoutState payout={payout} /> },
    {
      header: "Acciones",
      kind: "acciones",
      // Only a request not yet approved can be withdrawn.
      cell: (payout) =>
        payout.estado === "solicitado" && (
          <button type="button" className="boton boton--peligro boton--compacto" onClick={() => open(() => setCancelling(payout))}>
            Cancelar<span className="solo-lector"> retiro {payout.id}</span>
          </button>
        ),
    },
  ];

  const accountColumns: Column<Account>[] = [
    {
      header: "Cuenta",
      cell: (account) => {
        const standing = accountStanding(account.verificada);
        return (
          <>
            <strong>{account.descripcion}</strong> <Badge tone={standing.tone}>{standing.label}</Badge>
            <AccountParticulars account={account} />
          </>
        );
      },
    },
    {
      header: "Acciones",
      kind: "acciones",
      cell: (account) => (
        <button type="button" className="boton boton--peligro boton--compacto" onClick={() => open(() => setRemoving(account))}>
          Quitar<span className="solo-lector"> {account.descripcion}</span>
        </button>
      ),
    },
  ];

  const figures = balance.data;
  return (
    <>
      <PageHeader title="Dinero y retiros" description="Lo que tu empresa gana con los viajes de sus conductores, y cómo lo retira.">
        {figures && (
          <button type="button" className="boton" onClick={() => open(() => setRequesting(true))}>
            Pedir retiro
          </button>
        )}
      </PageHeader>
      <Notice kind="exito">{done}</Notice>
      <Notice kind="error">{balance.error}</Notice>
      {!figures && balance.loading && <Loading />}
      {figures && (
        <>
          <section className="cifras" aria-label="Saldo de la empresa">
            <StatCard
              name="Disponible"
              value={pesos(figures.disponible)}
              detail={`Para retirar, desde ${pesos(figures.retiro_minimo)} por retiro`}
            />
            <StatCard name="En retiro" value={pesos(figures.en_retiro)} detail="Reservado para retiros aún sin pagar" />
            <StatCard name="Total retirado" value={pesos(figures.total_retirado)} detail="Pagado a tu empresa en retiros" />
            <StatCard
              name="Parte de la comisión"
              value={percent(figures.porcentaje_comision)}
              detail="De la comisión de la plataforma en cada viaje de tus conductores"
            />
          </section>
          <section className="tarjeta" aria-labelledby="retiros-empresa">
            <h2 id="retiros-empresa">Retiros</h2>
            <PagedList
              caption="Retiros"
              columns={payoutColumns}
              rowKey={(payout) => payout.id}
              empty="Tu empresa aún no ha pedido retiros."
              list={payoutList}
              query={payouts}
            />
          </section>
          <section className="tarjeta" aria-labelledby="cuentas-empresa">
            <div className="tarjeta__cabecera">
              <h2 id="cuentas-empresa">Cuentas de retiro</h2>
              <button type="button" className="boton boton--secundario" onClick={() => open(() => setAdding(true))}>
                Agregar cuenta
              </button>
            </div>
            <p className="campo__ayuda">
              Las cuentas a las que la plataforma le paga a tu empresa. Un administrador verifica cada cuenta nueva: solo entonces recibe
              retiros.
            </p>
            <Notice kind="error">{accounts.error}</Notice>
            {!accounts.data && accounts.loading && <Loading />}
            {accounts.data && (
              <DataTable
                caption="Cuentas de retiro"
                columns={accountColumns}
                rows={accounts.data}
                rowKey={(account) => account.id}
                empty="Aún no hay cuentas de retiro: agrega una para pedir retiros."
                busy={accounts.loading}
              />
            )}
          </section>
          <section className="tarjeta" aria-labelledby="movimientos-empresa">
            <h2 id="movimientos-empresa">Movimientos</h2>
            <PagedList
              caption="Movimientos"
              columns={MOVEMENT_COLUMNS}
              rowKey={(line) => line.id}
              empty="Aún no hay movimientos: aquí aparecerá la parte de cada viaje que completen tus conductores."
              list={movementList}
              query={movements}
            />
          </section>
        </>
      )}
      <AddAccountDialog open={adding} onClose={() => setAdding(false)} onAdded={(message) => finished(message, [accounts])} />
      <RequestPayoutDialog
        open={requesting}
        available={figures?.disponible ?? 0}
        minimum={figures?.retiro_minimo ?? 0}
        accounts={verified}
        onClose={() => setRequesting(false)}
        onRequested={moneyMoved}
      />
      <ConfirmDialog
        open={cancelling !== null}
        title="Cancelar retiro"
        message={`El retiro #${cancelling?.id ?? ""} de ${pesos(cancelling?.monto ?? 0)} se cancelará y el monto volverá al saldo de tu empresa.`}
        confirm="Cancelar retiro"
        cancelLabel="Volver"
        danger
        busy={cancel.running}
        error={cancel.error}
        onClose={() => setCancelling(null)}
        onConfirm={async () =>
          cancelling &&
          (await cancel.run({ retiro_id: cancelling.id })) &&
          moneyMoved(`Cancelaste el retiro #${cancelling.id}; ${pesos(cancelling.monto)} volvieron al saldo de tu empresa.`)
        }
      />
      <ConfirmDialog
        open={removing !== null}
        title="Quitar cuenta de retiro"
        message={`${removing?.descripcion ?? ""} dejará de recibir retiros. Los retiros que ya fueron a ella la siguen mostrando.`}
        confirm="Quitar"
        danger
        busy={remove.running}
        error={remove.error}
        onClose={() => setRemoving(null)}
        onConfirm={async () =>
          removing &&
          (await remove.run({ cuenta_retiro_id: removing.id })) &&
          finished(`Se quitó la cuenta ${removing.descripcion}.`, [accounts])
        }
      />
    </>
  );
}
