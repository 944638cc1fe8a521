import { useState } from "react";
import { useMutation, useQuery } from "../../api/hooks";
import { success } from "../../api/result";
import { Link } from "../../app/router";
import { ConfirmDialog } from "../../components/confirm-dialog";
import type { Column } from "../../components/data-table";
import { SelectField, TextField } from "../../components/fields";
import { PagedList } from "../../components/paged-list";
import { PageHeader } from "../../components/page-header";
import { ReasonDialog } from "../../components/reason-dialog";
import { useList } from "../../components/use-list";
import { dateTime, pesos } from "../../format";
import {
  type AccionRetiro,
  type EstadoRetiro,
  type OrdenRetiros,
  RetirosDocument,
  type RetirosQuery,
  RevisarRetiroDocument,
} from "../../gql/graphql";
import { optionsOf, PAYOUT_STATES } from "../../labels";
import { PayoutState } from "./payout-parts";
import { SettlementReport } from "./settlement-report";

type Page = Extract<RetirosQuery["allPayouts"], { __typename: "PaginaRetiros" }>;
type Row = Page["items"][number];

/** What each review step asks of the operator, and what it says once done (`whose`: "del conductor", "de la empresa"). */
const STEPS: Record<Exclude<AccionRetiro, "fallido">, { title: string; confirm: string; done: (whose: string) => string }> = {
  aprobar: { title: "Aprobar retiro", confirm: "Aprobar", done: () => "aprobado; falta pagarlo" },
  rechazar: { title: "Rechazar retiro", confirm: "Rechazar", done: (whose) => `rechazado; el monto volvió al saldo ${whose}` },
  pagar: { title: "Marcar como pagado", confirm: "Marcar pagado", done: () => "marcado como pagado" },
};

/** Whose balance a payout comes out of: a driver's, or a company's. */
const whoseBalance = (payout: { conductor_id?: number | null }) => (payout.conductor_id === null ? "de la empresa" : "del conductor");

export function PayoutsPage() {
  const list = useList({ filters: { estado: "solicitado", conductor: "" }, sort: "solicitado_en" as OrdenRetiros, order: "asc" });
  const conductor = Number(list.filters.conductor);
  const query = useQuery(
    RetirosDocument,
    {
      page: list.page,
      per_page: 20,
      estado: (list.filters.estado || undefined) as EstadoRetiro | undefined,
      conductor_id: Number.isInteger(conductor) && conductor > 0 ? conductor : undefined,
      sort: list.sorting.sort,
      order: list.sorting.order,
    },
    (result) => success(result.allPayouts),
  );
  const review = useMutation(RevisarRetiroDocument, (result) => success(result.reviewPayout));
  const [step, setStep] = useState<{ accion: keyof typeof STEPS; payout: Row } | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function run(text?: string) {
    if (!step) return;
    const { accion, payout } = step;
    const reviewed = await review.run({
      retiro_id: payout.id,
      accion,
      motivo: accion === "rechazar" ? text : undefined,
      referencia_pago: accion === "pagar" ? text : undefined,
    });
    if (!reviewed) return;
    setStep(null);
    setDone(`Retiro #${payout.id} de ${pesos(payout.monto)} ${STEPS[accion].done(whoseBalance(payout))}.`);
    query.reload();
  }

  const open = (accion: keyof typeof STEPS, payout: Row) => {
    review.clearError();
    setDone(null);
    setStep({ accion, payout });
  };

  const columns: Column<Row>[] = [
    { header: "Retiro", sort: "id", cell: (payout) => `#${payout.id}` },
    {
      header: "Para",
      // A payout goes to a driver or to a company.
      cell: (payout) =>
        payout.conductor_id === null ? (
          `Empresa #${payout.empresa_id}`
        ) : (
          <Link to={`conductores/${payout.conductor_id}`}>Conductor #{payout.conductor_id}</Link>
        ),
    },
    { header: "Monto", sort: "monto", kind: "numero", cell: (payout) => pesos(payout.monto) },
    {
      header: "Cuenta",
      cell: (payout) => (
        <>
          {payout.cuenta.descripcion}
          <span className="tabla__secundario">
            {payout.cuenta.titular_nombre ?? ""} {payout.cuenta.verificada ? "· verificada" : "· sin verificar"}
          </span>
        </>
      ),
    },
    { header: "Estado", sort: "estado", cell: (payout) => <PayoutState payout={payout} /> },
    { header: "Solicitado", sort: "solicitado_en", cell: (payout) => dateTime(payout.solicitado_en) },
    {
      header: "Acciones",
      kind: "acciones",
      cell: (payout) => (
        <>
          {payout.estado === "solicitado" && (
            <>
              <button type="button" className="boton boton--compacto" onClick={() => open("aprobar", payout)}>
                Aprobar<span className="solo-lector"> retiro {payout.id}</span>
              </button>
              <button type="button" className="boton boton--peligro boton--compacto" onClick={() => open("rechazar", payout)}>
                Rechazar<span className="solo-lector"> retiro {payout.id}</span>
              </button>
            </>
          )}
          {payout.estado === "aprobado" && (
            <button type="button" className="boton boton--compacto" onClick={() => open("pagar", payout)}>
              Marcar pagado<span className="solo-lector"> retiro {payout.id}</span>
            </button>
          )}
        </>
      ),
    },
  ];

  const target = step?.payout;
  const summary = target ? `Retiro #${target.id} de ${pesos(target.monto)} a ${target.cuenta.descripcion}.` : "";
  return (
    <>
      <PageHeader
        title="Retiros y liquidación"
        description="Los retiros que piden los conductores y las empresas, y la conciliación del dinero de la plataforma."
      />
      <PagedList
        caption="Retiros"
        columns={columns}
        rowKey={(payout) => payout.id}
        empty="No hay retiros con estos filtros."
        list={list}
        query={query}
        done={done}
      >
        <SelectField label="Estado" options={optionsOf(PAYOUT_STATES, "Todos")} {...list.field("estado")} />
        <TextField
          label="Conductor (número)"
          inputMode="numeric"
          value={list.filters.conductor}
          onChange={(event) => list.setFilter("conductor", event.target.value.replace(/\D/g, ""))}
        />
      </PagedList>
      <SettlementReport />
      <ConfirmDialog
        open={step?.accion === "aprobar"}
        title={STEPS.aprobar.title}
        message={`${summary} Después de aprobarlo, transfiere el dinero y márcalo como pagado con la referencia.`}
        confirm={STEPS.aprobar.confirm}
        busy={review.running}
        error={review.error}
        onClose={() => setStep(null)}
        onConfirm={() => run()}
      />
      <ReasonDialog
        open={step?.accion === "rechazar"}
        title={STEPS.rechazar.title}
        message={`${summary} El monto vuelve al saldo ${target ? whoseBalance(target) : ""}, que verá el motivo.`}
        label="Motivo del rechazo"
        confirm={STEPS.rechazar.confirm}
        danger
        busy={review.running}
        error={review.error}
        onClose={() => setStep(null)}
        onConfirm={run}
      />
      <ReasonDialog
        open={step?.accion === "pagar"}
        title={STEPS.pagar.title}
        message={`${summary} Escribe la referencia de la transferencia que hiciste.`}
        label="Referencia del pago"
        confirm={STEPS.pagar.confirm}
        short
        busy={review.running}
        error={review.error}
        onClose={() => setStep(null)}
        onConfirm={run}
      />
    </>
  );
}
