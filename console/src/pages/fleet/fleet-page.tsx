import { useQuery } from "../../api/hooks";
import { success } from "../../api/result";
import { Link } from "../../app/router";
import { Badge } from "../../components/badge";
import type { Column } from "../../components/data-table";
import { SelectField } from "../../components/fields";
import { PagedList } from "../../components/paged-list";
import { PageHeader } from "../../components/page-header";
import { useList } from "../../components/use-list";
import { counted, pesos } from "../../format";
import {
  type ConexionConductor,
  ConductoresEmpresaDocument,
  type FilaConductorEmpresaFragment,
  type EstadoDocumentosConductor,
  type EstadoRevision,
  type OrdenConductoresEmpresa,
  type TipoVehiculo,
} from "../../gql/graphql";
import { CONNECTION_STATES, DOCUMENT_STANDINGS, labelOf, optionsOf, REVIEW_STATES, VEHICLE_TYPES } from "../../labels";
import { Connection, DueDocuments, rate, rating, ratings } from "./fleet-parts";

type Row = FilaConductorEmpresaFragment;

const fullName = (driver: Row) => `${driver.nombre} ${driver.apellido}`.trim();

const columns: Column<Row>[] = [
  {
    header: "Conductor",
    sort: "nombre",
    cell: (driver) => (
      <>
        <Link to={`conductores/${driver.conductor_id}`} className="tabla__principal">
          {fullName(driver)}
        </Link>
        <span className="tabla__secundario">{driver.telefono}</span>
      </>
    ),
  },
  {
    header: "Vehículo",
    cell: (driver) =>
      driver.vehiculo?.tipo ? (
        <>
          {labelOf(VEHICLE_TYPES, driver.vehiculo.tipo)}
          <span className="tabla__secundario">{driver.vehiculo.placa}</span>
        </>
      ) : (
        "Sin vehículo"
      ),
  },
  {
    header: "Aprobación",
    sort: "fecha_aprobacion",
    cell: (driver) => <Badge tone={REVIEW_STATES[driver.estado_revision].tone}>{REVIEW_STATES[driver.estado_revision].label}</Badge>,
  },
  { header: "Ahora", cell: (driver) => <Connection driver={driver} /> },
  {
    header: "Calificación",
    sort: "calificacion",
    kind: "numero",
    cell: (driver) => (
      <>
        {rating(driver)}
        {driver.total_calificaciones > 0 && <span className="tabla__secundario">{ratings(driver)}</span>}
      </>
    ),
  },
  {
    header: "Tasas",
    kind: "numero",
    cell: (driver) => (
      <>
        Acepta {rate(driver.tasa_aceptacion)}
        <span className="tabla__secundario">Completa {rate(driver.tasa_completacion)}</span>
      </>
    ),
  },
  { header: "Documentos", cell: (driver) => <DueDocuments documents={driver.documentos} /> },
  { header: "Deuda", kind: "numero", cell: (driver) => pesos(driver.deuda) },
];

/**
 * A manager's fleet: the company's drivers, where each is now and on which trip, their rating and
 * rates, the documents that expired or expire soon, and what they owe; each opens their detail.
 */
export function FleetPage() {
  const list = useList({
    filters: { estado: "", conexion: "", vehiculo: "", documentos: "" },
    sort: "nombre" as OrdenConductoresEmpresa,
    order: "asc",
  });
  const { filters } = list;
  const query = useQuery(
    ConductoresEmpresaDocument,
    {
      page: list.page,
      per_page: 20,
      search: list.sentSearch,
      estado_revision: (filters.estado || undefined) as EstadoRevision | undefined,
      conexion: (filters.conexion || undefined) as ConexionConductor | undefined,
      tipo_vehiculo: (filters.vehiculo || undefined) as TipoVehiculo | undefined,
      documentos: (filters.documentos || undefined) as EstadoDocumentosConductor | undefined,
      sort: list.sorting.sort,
      order: list.sorting.order,
    },
    (result) => ({ ...success(result.companyDrivers), solicitudes: success(result.solicitudes).pagination.total }),
  );
  const requests = query.data?.solicitudes ?? 0;

  return (
    <>
      <PageHeader title="Conductores" description="Los conductores de tu empresa: dónde están ahora, cómo trabajan y sus documentos.">
        <Link to="solicitudes" className="boton boton--secundario">
          {requests > 0 ? `${counted(requests, "solicitud", "solicitudes")} por responder` : "Solicitudes e invitaciones"}
        </Link>
      </PageHeader>
      <PagedList
        caption="Conductores de la empresa"
        columns={columns}
        rowKey={(driver) => driver.conductor_id}
        empty="Ningún conductor de tu empresa coincide con los filtros."
        list={list}
        query={query}
        search="Nombre, correo, teléfono o placa"
      >
        <SelectField label="Ahora" options={optionsOf(CONNECTION_STATES, "Todos")} {...list.field("conexion")} />
        <SelectField label="Aprobación" options={optionsOf(REVIEW_STATES, "Todos")} {...list.field("estado")} />
        <SelectField label="Vehículo" options={optionsOf(VEHICLE_TYPES, "Todos")} {...list.field("vehiculo")} />
        <SelectField label="Documentos" options={optionsOf(DOCUMENT_STANDINGS, "Todos")} {...list.field("documentos")} />
      </PagedList>
    </>
  );
}
