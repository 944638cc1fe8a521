import { type FormEvent, useState } from "react";
import { useQuery } from "../../api/hooks";
import { type Success, success } from "../../api/result";
import { Badge } from "../../components/badge";
import { type Column, DataTable } from "../../components/data-table";
import { TextField } from "../../components/fields";
import { Loading, Notice } from "../../components/notice";
import { StatCard } from "../../components/stat-card";
import { bogotaDay, number, pesos } from "../../format";
import { ConciliacionDocument, type ConciliacionQuery } from "../../gql/graphql";

type CompanyLine = Success<ConciliacionQuery["settlementReport"]>["empresas"][number];

/** A company's line: its share of the range's commissions, what it was paid in the range, and what it is owed today. */
const COMPANY_COLUMNS: Column<CompanyLine>[] = [
  { header: "Empresa", cell: (line) => line.nombre },
  { header: "Parte de la comisión", kind: "numero", cell: (line) => pesos(line.participacion) },
  { header: "Pagado", kind: "numero", cell: (line) => pesos(line.pagado) },
  { header: "Saldo hoy", kind: "numero", cell: (line) => pesos(line.saldo) },
];

/**
 * The money of a range of days: what trips brought in, what the platform kept, what drivers were
 * paid and are owed, and each company's share, payouts and balance.
 */
export function SettlementReport() {
  const [range, setRange] = useState({ desde: bogotaDay(-29), hasta: bogotaDay() });
  const [draft, setDraft] = useState(range);
  const { data: report, error, loading } = useQuery(ConciliacionDocument, range, (data) => success(data.settlementReport));

  function submit(event: FormEvent) {
    event.preventDefault();
    setRange(draft);
  }

  return (
    <section className="tarjeta" aria-labelledby="conciliacion">
      <div className="tarjeta__cabecera">
        <h2 id="conciliacion">Liquidación del periodo</h2>
        {report && (report.cuadra ? <Badge tone="exito">El libro cuadra</Badge> : <Badge tone="peligro">El libro no cuadra</Badge>)}
      </div>
      <form className="filtros filtros--en-linea" onSubmit={submit}>
        <TextField
          label="Desde"
          type="date"
          required
          value={draft.desde}
          onChange={(event) => setDraft({ ...draft, desde: event.target.value })}
        />
        <TextField
          label="Hasta"
          type="date"
          required
          value={draft.hasta}
          onChange={(event) => setDraft({ ...draft, hasta: event.target.value })}
        />
        <button type="submit" className="boton">
          Consultar
        </button>
      </form>
      <Notice kind="error">{error}</Notice>
      {!report && loading && <Loading />}
      {report && (
        <>
          <div className="cifras">
            <StatCard name="Viajes completados" value={number(report.viajes_completados)} />
            <StatCard
              name="Cobrado"
              value={pesos(report.bruto)}
              detail={`${pesos(report.cobrado_efectivo)} en efectivo · ${pesos(report.cobrado_plataforma)} por la plataforma`}
            />
            <StatCard
              name="Comisión de la plataforma"
              value={pesos(report.comision)}
              detail={`${pesos(report.comision_plataforma)} por viaje · ${pesos(report.comision_metodo_pago)} por pago digital`}
            />
            <StatCard
              name="Parte de las empresas"
              value={pesos(report.participacion_empresas)}
              detail="De la comisión por viaje, para las empresas de los conductores"
            />
            <StatCard name="Ganado por conductores" value={pesos(report.neto)} />
            <StatCard name="Pagado a conductores" value={pesos(report.pagado_a_conductores)} detail="Retiros pagados en el periodo" />
            <StatCard
              name="Saldos hoy"
              value={pesos(report.saldo_de_conductores)}
              detail={`La plataforma debe a conductores; ellos deben ${pesos(report.deuda_de_conductores)}`}
            />
          </div>
          {report.empresas.length > 0 && (
            <>
              <h3>Empresas</h3>
              <DataTable
                caption="Empresas en la liquidación"
                columns={COMPANY_COLUMNS}
                rows={report.empresas}
                rowKey={(line) => line.empresa_id}
              />
            </>
          )}
          {report.problemas.length > 0 && (
            <Notice kind="error">
              <ul>
                {report.problemas.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
            </Notice>
          )}
        </>
      )}
    </section>
  );
}
