import { useState } from "react";
import { useQuery } from "../../api/hooks";
import { success } from "../../api/result";
import { Link } from "../../app/router";
import { Badge } from "../../components/badge";
import type { Column } from "../../components/data-table";
import { LiveBadge } from "../../components/live-badge";
import { PagedList } from "../../components/paged-list";
import { PageHeader } from "../../components/page-header";
import { dateTime, pesos } from "../../format";
import { ViajesEmpresaDocument } from "../../gql/graphql";
import { labelOf, SERVICE_TYPES, TRIP_STATES } from "../../labels";
import { TripFilterFields, useTripFilters } from "../trips/trip-filters";
import { TRIP_TONES } from "../trips/trip-states";
import { useCompanyTripChanges } from "../trips/use-live-trips";
import { type CompanyTrip, CompanyTripDialog } from "./company-trip-dialog";

/**
 * The columns of a company's trips, on its trips page and (without the driver, and the service
 * their vehicle gives) on a driver's; `open` shows one's detail.
 */
export function companyTripColumns(open: (trip: CompanyTrip) => void, { withDriver = true } = {}): Column<CompanyTrip>[] {
  return [
    { header: "Viaje", sort: "id", cell: (trip) => `#${trip.id}` },
    { header: "Pedido", sort: "fecha_solicitud", cell: (trip) => dateTime(trip.fecha_solicitud) },
    {
      header: "Recorrido",
      cell: (trip) => (
        <>
          {trip.origen.direccion}
          <span className="tabla__secundario">→ {trip.destino.direccion}</span>
        </>
      ),
    },
    {
      header: withDriver ? "Personas" : "Pasajero",
      cell: (trip) => (
        <>
          {trip.pasajero_nombre ?? "—"}
          {withDriver && (
            <span className="tabla__secundario">
              Conductor:{" "}
              {trip.conductor_id && trip.conductor_nombre ? (
                <Link to={`conductores/${trip.conductor_id}`}>{trip.conductor_nombre}</Link>
              ) : (
                "—"
              )}
            </span>
          )}
        </>
      ),
    },
    ...(withDriver ? [{ header: "Servicio", cell: (trip: CompanyTrip) => labelOf(SERVICE_TYPES, trip.tipo_servicio) }] : []),
    { header: "Estado", cell: (trip) => <Badge tone={TRIP_TONES[trip.estado]}>{labelOf(TRIP_STATES, trip.estado)}</Badge> },
    { header: "Precio", sort: "precio_estimado", kind: "numero", cell: (trip) => pesos(trip.precio_final ?? trip.precio_estimado) },
    {
      header: "Parte de la empresa",
      kind: "numero",
      cell: (trip) => (trip.comision_empresa === null ? "—" : pesos(trip.comision_empresa)),
    },
    {
      header: "Detalle",
      kind: "acciones",
      cell: (trip) => (
        <button type="button" className="boton boton--secundario boton--compacto" onClick={() => open(trip)}>
          Ver<span className="solo-lector"> viaje {trip.id}</span>
        </button>
      ),
    },
  ];
}

/** A manager's trips: those the company's drivers took, with their money; kept current as they change. */
export function CompanyTripsPage() {
  const { list, variables } = useTripFilters();
  const query = useQuery(ViajesEmpresaDocument, variables, (result) => success(result.companyTrips));
  const status = useCompanyTripChanges(query.reload);
  const [open, setOpen] = useState<CompanyTrip | null>(null);

  return (
    <>
      <PageHeader
        title="Viajes"
        description="Los viajes que tomaron los conductores de tu empresa, con su precio y la parte de la empresa."
      >
        <LiveBadge status={status} />
      </PageHeader>
      <PagedList
        caption="Viajes de la empresa"
        columns={companyTripColumns(setOpen)}
        rowKey={(trip) => trip.id}
        empty="Ningún viaje de tu empresa coincide con los filtros."
        list={list}
        query={query}
        search="Número del viaje o dirección"
      >
        <TripFilterFields list={list} />
      </PagedList>
      <CompanyTripDialog trip={open} onClose={() => setOpen(null)} />
    </>
  );
}
