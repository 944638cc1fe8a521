import { useQuery } from "../../api/hooks";
import { success } from "../../api/result";
import { Link } from "../../app/router";
import { Badge } from "../../components/badge";
import type { Column } from "../../components/data-table";
import { SelectField } from "../../components/fields";
import { PagedList } from "../../components/paged-list";
import { PageHeader } from "../../components/page-header";
import { StatCard } from "../../components/stat-card";
import { useList } from "../../components/use-list";
import { date, number } from "../../format";
import {
  ColaConductoresDocument,
  type ColaConductoresQuery,
  type EstadoRevision,
  type OrdenConductores,
  type TipoVehiculo,
} from "../../gql/graphql";
import { labelOf, optionsOf, REVIEW_STATES, VEHICLE_TYPES } from "../../labels";

type Page = Extract<ColaConductoresQuery["drivers"], { __typename: "PaginaConductores" }>;
type Row = Page["items"][number];

const EXPIRED = [
  { value: "", label: "Todos" },
  { value: "true", label: "Con documentos vencidos" },
  { value: "false", label: "Con documentos al día" },
];

const columns: Column<Row>[] = [
  {
    header: "Conductor",
    sort: "nombre",
    cell: (driver) => (
      <>
        <strong>{driver.nombre_completo || "Sin nombre"}</strong>
        <span className="tabla__secundario">{driver.email}</span>
      </>
    ),
  },
  {
    header: "Vehículo",
    cell: (driver) =>
      driver.vehiculo?.tipo ? `${labelOf(VEHICLE_TYPES, driver.vehiculo.tipo)} ${driver.vehiculo.placa ?? ""}` : "Sin vehículo",
  },
  {
    header: "Estado",
    cell: (driver) => {
      const state = REVIEW_STATES[driver.estado_revision as EstadoRevision];
      return <Badge tone={state?.tone ?? "neutro"}>{state?.label ?? driver.estado_revision}</Badge>;
    },
  },
  { header: "Solicitud", sort: "fecha_solicitud", cell: (driver) => date(driver.fecha_solicitud) },
  { header: "Completa", kind: "numero", cell: (driver) => `${driver.completitud.porcentaje} %` },
  {
    header: "Documentos",
    cell: (driver) =>
      driver.documentos_vencidos.length > 0 ? <Badge tone="peligro">{`${driver.documentos_vencidos.length} vencidos`}</Badge> : "Al día",
  },
  {
    header: "Acciones",
    kind: "acciones",
    cell: (driver) => (
      <Link to={`conductores/${driver.conductor_id}`} className="boton boton--secundario boton--compacto">
        Revisar<span className="solo-lector"> a {driver.nombre_completo}</span>
      </Link>
    ),
  },
];

/** The review queue: applications waiting for an administrator first, oldest first; any other state by filter. */
export function DriversPage() {
  const list = useList({
    filters: { estado: "en_revision", vehiculo: "", vencidos: "" },
    sort: "fecha_solicitud" as OrdenConductores,
    order: "asc",
  });
  const query = useQuery(
    ColaConductoresDocument,
    {
      page: list.page,
      per_page: 20,
      search: list.sentSearch,
      estado_revision: (list.filters.estado || undefined) as EstadoRevision | undefined,
      tipo_vehiculo: (list.filters.vehiculo || undefined) as TipoVehiculo | undefined,
      documentos_vencidos: list.filters.vencidos === "" ? undefined : list.filters.vencidos === "true",
      sort: list.sorting.sort,
      order: list.sorting.order,
    },
    (result) => success(result.drivers),
  );
  const stats = query.data?.estadisticas;

  return (
    <>
      <PageHeader
        title="Revisión de conductores"
        description="Solicitudes de conductores: documentos, vehículo y licencia antes de aprobarlos."
      />
      {stats && (
        <section className="cifras" aria-label="Conteos de conductores">
          <StatCard name="Por revisar" value={number(stats.pendientes_verificacion)} />
          <StatCard name="Aprobados" value={number(stats.aprobados)} />
          <StatCard name="Con documentos vencidos" value={number(stats.con_documentos_vencidos)} />
          <StatCard name="Conductores en total" value={number(stats.total_conductores)} />
        </section>
      )}
      <PagedList
        caption="Conductores"
        columns={columns}
        rowKey={(driver) => driver.conductor_id}
        empty="No hay conductores con estos filtros."
        list={list}
        query={query}
        search="Nombre, correo, teléfono o placa"
      >
        <SelectField label="Estado" options={optionsOf(REVIEW_STATES, "Todos")} {...list.field("estado")} />
        <SelectField label="Vehículo" options={optionsOf(VEHICLE_TYPES, "Todos")} {...list.field("vehiculo")} />
        <SelectField label="Documentos" options={EXPIRED} {...list.field("vencidos")} />
      </PagedList>
    </>
  );
}
