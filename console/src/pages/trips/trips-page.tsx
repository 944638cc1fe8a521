import { useState } from "react";
import { useQuery } from "../../api/hooks";
import { success } from "../../api/result";
import { Badge } from "../../components/badge";
import type { Column } from "../../components/data-table";
import { LiveBadge } from "../../components/live-badge";
import { PagedList } from "../../components/paged-list";
import { PageHeader } from "../../components/page-header";
import { dateTime, pesos } from "../../format";
import { ViajesDocument } from "../../gql/graphql";
import { labelOf, SERVICE_TYPES, TRIP_STATES } from "../../labels";
import { TripDialog } from "./trip-dialog";
import { TripFilterFields, useTripFilters } from "./trip-filters";
import { TRIP_TONES, type Trip } from "./trip-states";
import { useLiveTrips } from "./use-live-trips";

const name = (who: Trip["pasajero"]) => (who ? `${who.nombre} ${who.apellido}` : "—");

export function TripsPage() {
  const { list, variables } = useTripFilters();
  const query = useQuery(ViajesDocument, variables, (result) => success(result.trips));
  const { rows, status } = useLiveTrips(query.data?.items, query.reload);
  const [open, setOpen] = useState<Trip | null>(null);

  const columns: Column<Trip>[] = [
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
      header: "Personas",
      cell: (trip) => (
        <>
          {name(trip.pasajero)}
          <span className="tabla__secundario">Conductor: {name(trip.conductor)}</span>
        </>
      ),
    },
    { header: "Servicio", cell: (trip) => labelOf(SERVICE_TYPES, trip.tipo_servicio) },
    { header: "Estado", cell: (trip) => <Badge tone={TRIP_TONES[trip.estado]}>{labelOf(TRIP_STATES, trip.estado)}</Badge> },
    { header: "Precio", sort: "precio_estimado", kind: "numero", cell: (trip) => pesos(trip.precio_final ?? trip.precio_estimado) },
    {
      header: "Detalle",
      kind: "acciones",
      cell: (trip) => (
        <button type="button" className="boton boton--secundario boton--compacto" onClick={() => setOpen(trip)}>
          Ver<span className="solo-lector"> viaje {trip.id}</span>
        </button>
      ),
    },
  ];

  return (
    <>
      <PageHeader title="Viajes" description="Todos los viajes pedidos en la plataforma, con sus personas, recorrido y precio.">
        <LiveBadge status={status} />
      </PageHeader>
      <PagedList
        caption="Viajes"
        columns={columns}
        rowKey={(trip) => trip.id}
        empty="Ningún viaje coincide con los filtros."
        list={list}
        query={query}
        rows={rows}
        search="Número del viaje o dirección"
      >
        <TripFilterFields list={list} />
      </PagedList>
      <TripDialog trip={open} onClose={() => setOpen(null)} onCancelled={query.reload} />
    </>
  );
}
