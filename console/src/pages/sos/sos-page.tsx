import { lazy, Suspense } from "react";
import { useQuery } from "../../api/hooks";
import { success } from "../../api/result";
import { Link } from "../../app/router";
import { useSession } from "../../auth/session";
import { Badge } from "../../components/badge";
import type { Column } from "../../components/data-table";
import { Facts } from "../../components/facts";
import { SelectField } from "../../components/fields";
import { Loading, Notice } from "../../components/notice";
import { PagedList } from "../../components/paged-list";
import { PageHeader } from "../../components/page-header";
import { useList } from "../../components/use-list";
import { dateTime } from "../../format";
import { DetalleSosDocument, type EstadoSos, IncidentesSosDocument } from "../../gql/graphql";
import { optionsOf } from "../../labels";
import { SosActions } from "../../sos/sos-actions";
import { type Sos, SOS_STATES, SOS_STEPS, senderOf } from "../../sos/sos-labels";

const SosMap = lazy(() => import("../../sos/sos-map").then((module) => ({ default: module.SosMap })));

function SosState({ sos }: { sos: Sos }) {
  return (
    <span className="estado-viaje">
      <Badge tone={SOS_STATES[sos.estado].tone}>{SOS_STATES[sos.estado].label}</Badge>
      {sos.escalado && <Badge tone="peligro">Escalado</Badge>}
    </span>
  );
}

/** Every SOS, newest first, by state: an administrator's all, a manager's those of the company's trips. */
export function SosPage() {
  const list = useList({ filters: { estado: "" }, sort: "id", order: "desc" });
  const query = useQuery(
    IncidentesSosDocument,
    { page: list.page, per_page: 20, estado: (list.filters.estado || undefined) as EstadoSos | undefined },
    (result) => success(result.sosIncidents),
  );
  const columns: Column<Sos>[] = [
    { header: "SOS", cell: (sos) => <Link to={`sos/${sos.id}`}>SOS #{sos.id}</Link> },
    { header: "Enviado", cell: (sos) => dateTime(sos.creado_en) },
    { header: "Quién", cell: senderOf },
    { header: "Viaje", cell: (sos) => `#${sos.viaje_id}` },
    { header: "Estado", cell: (sos) => <SosState sos={sos} /> },
    { header: "Nota", cell: (sos) => sos.nota ?? "" },
  ];
  return (
    <>
      <PageHeader
        title="Incidentes SOS"
        description="Los SOS que envían pasajeros y conductores desde un viaje, con lo que se hizo con cada uno. Nunca se borran."
      />
      <PagedList
        caption="Incidentes SOS"
        columns={columns}
        rowKey={(sos) => sos.id}
        empty="No hay SOS con estos filtros."
        list={list}
        query={query}
      >
        <SelectField label="Estado" options={optionsOf(SOS_STATES, "Todos")} {...list.field("estado")} />
      </PagedList>
    </>
  );
}

/** One SOS: where it was sent from, what was done, step by step, and what is left to do. */
export function SosDetailPage({ sosId }: { sosId: number }) {
  const current = useSession();
  const query = useQuery(DetalleSosDocument, { incidente_id: sosId }, (result) => success(result.sosIncident));
  const detail = query.data;
  return (
    <>
      <PageHeader title={`SOS #${sosId}`} description="Quién lo envió, desde dónde, y cada paso hasta resolverlo.">
        <Link to="sos" className="boton boton--secundario">
          Todos los SOS
        </Link>
      </PageHeader>
      <Notice kind="error">{query.error}</Notice>
      {!detail ? (
        query.loading && <Loading />
      ) : (
        <div className="sos__detalle">
          <section className="tarjeta">
            <SosState sos={detail.incidente} />
            <Facts
              items={[
                ["Quién", senderOf(detail.incidente)],
                ["Teléfono", detail.incidente.remitente?.telefono],
                ["Viaje", `#${detail.incidente.viaje_id}`],
                ["Enviado", dateTime(detail.incidente.creado_en)],
                ["Posición", `${detail.incidente.latitud}, ${detail.incidente.longitud}`],
                ["Nota", detail.incidente.nota],
              ]}
            />
            {current?.rol === "admin" && <SosActions sos={detail.incidente} onChanged={query.reload} />}
            <Suspense fallback={<div className="mapa mapa--sos" />}>
              <SosMap sos={detail.incidente} name={senderOf(detail.incidente)} />
            </Suspense>
          </section>
          <section className="tarjeta">
            <h2>Historia</h2>
            <ol className="sos__historia">
              {detail.historial.map((step) => (
                <li key={step.id}>
                  <strong>{SOS_STEPS[step.tipo]}</strong> · {dateTime(step.creado_en)}
                  {step.actor_nombre ? ` · ${step.actor_nombre}` : ""}
                  {step.detalle && <span className="tabla__secundario">{step.detalle}</span>}
                </li>
              ))}
            </ol>
          </section>
        </div>
      )}
    </>
  );
}
