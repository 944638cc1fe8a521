import { useEffect, useMemo, useRef, useState } from "react";
import { type QueryState, useQuery } from "../../api/hooks";
import { useSubscription } from "../../api/live";
import { success } from "../../api/result";
import { type Column, DataTable } from "../../components/data-table";
import { LiveBadge } from "../../components/live-badge";
import { Loading, Notice } from "../../components/notice";
import { PageHeader } from "../../components/page-header";
import { counted, dateTime } from "../../format";
import {
  type ConductorEnMapaFragment,
  ConductoresEnVivoDocument,
  type EstadoConductorEnVivo,
  type EstadoViaje,
  OperacionesEnVivoDocument,
  ViajesActivosEmpresaDocument,
} from "../../gql/graphql";
import { labelOf, TRIP_STATES, VEHICLE_TYPES } from "../../labels";
import { useCityMap } from "../../map/city-map";
import { DriverLayer } from "./driver-layer";
import { DRIVER_STATES, stateClass } from "./driver-states";

/** The Aburrá valley around Medellín: the area the page follows. */
const AREA = { norte: 6.42, sur: 6.08, este: -75.45, oeste: -75.72 };
const FINISHED = new Set(["completado", "cancelado"]);

/** A trip under way, as both the first read and the live changes carry it. */
interface ActiveTrip {
  id: number;
  estado: EstadoViaje;
  fecha_solicitud: string;
  conductor_id: number | null;
  origen: { direccion: string };
  destino: { direccion: string };
}

const byId = <T,>(rows: readonly T[], id: (row: T) => number) => new Map(rows.map((row) => [id(row), row]));

/** The administrators' map: every driver online and every trip under way in the city. */
export function LiveMapPage() {
  const first = useQuery(ConductoresEnVivoDocument, AREA, (data) => ({
    drivers: success(data.liveDrivers).data,
    trips: success(data.trips).items,
  }));
  return <LiveMap first={first} description="Conductores conectados y viajes en curso en el valle de Aburrá." />;
}

/** A company manager's map: the API sends them only their company's drivers and the trips done for it. */
export function CompanyLiveMapPage() {
  const first = useQuery(ViajesActivosEmpresaDocument, {}, (data) => ({ drivers: [], trips: success(data.companyTrips).items }));
  return <LiveMap first={first} description="Los conductores de tu empresa que están conectados y sus viajes en curso." />;
}

/**
 * The city map with the drivers online and the trips under way: what `first` read, then kept
 * current by liveOperations, which the API limits to what the operator may see.
 */
function LiveMap({
  first: { data: first, error, loading },
  description,
}: {
  first: Pick<QueryState<{ drivers: readonly ConductorEnMapaFragment[]; trips: readonly ActiveTrip[] }>, "data" | "error" | "loading">;
  description: string;
}) {
  const { container, map, hasTiles } = useCityMap("Mapa de Medellín con los conductores conectados");
  const [drivers, setDrivers] = useState(new Map<number, ConductorEnMapaFragment>());
  const [trips, setTrips] = useState(new Map<number, ActiveTrip>());
  useEffect(() => {
    if (!first) return;
    // The live changes may have arrived first: they are newer than what was read.
    setDrivers((current) => new Map([...byId(first.drivers, (driver) => driver.conductor_id), ...current]));
    setTrips((current) => new Map([...byId(first.trips, (trip) => trip.id), ...current]));
  }, [first]);

  // Each batch (about once a second) says who appeared or moved, who left, and which trips changed.
  const status = useSubscription(OperacionesEnVivoDocument, AREA, ({ liveOperations: changes }) => {
    setDrivers((current) => {
      const next = new Map(current);
      for (const driver of changes.conductores) next.set(driver.conductor_id, driver);
      for (const gone of changes.salidas) next.delete(gone);
      return next;
    });
    setTrips((current) => {
      const next = new Map(current);
      for (const trip of changes.viajes) {
        if (FINISHED.has(trip.estado)) next.delete(trip.id);
        else next.set(trip.id, trip);
      }
      return next;
    });
  });

  const [layer, setLayer] = useState<DriverLayer | null>(null);
  useEffect(() => {
    if (!map) return;
    const created = new DriverLayer(map);
    setLayer(created);
    return () => created.clear();
  }, [map]);

  const shown = useRef(new Set<number>());
  useEffect(() => {
    if (!layer) return;
    for (const id of shown.current) if (!drivers.has(id)) layer.remove(id);
    for (const driver of drivers.values()) layer.put(driver);
    shown.current = new Set(drivers.keys());
  }, [drivers, layer]);

  const tripColumns: Column<ActiveTrip>[] = [
    { header: "Viaje", cell: (trip) => `#${trip.id}` },
    { header: "Estado", cell: (trip) => labelOf(TRIP_STATES, trip.estado) },
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
      header: "Conductor",
      cell: (trip) =>
        trip.conductor_id === null ? "Sin asignar" : (drivers.get(trip.conductor_id)?.nombre ?? `Conductor #${trip.conductor_id}`),
    },
    { header: "Pedido", cell: (trip) => dateTime(trip.fecha_solicitud) },
  ];

  const counts = useMemo(() => {
    const totals: Record<EstadoConductorEnVivo, number> = { libre: 0, en_viaje: 0, documentos_vencidos: 0 };
    for (const driver of drivers.values()) totals[driver.estado] += 1;
    return totals;
  }, [drivers]);
  const byVehicle = useMemo(() => {
    const totals = new Map<string, number>();
    for (const driver of drivers.values()) totals.set(driver.tipo_vehiculo, (totals.get(driver.tipo_vehiculo) ?? 0) + 1);
    return [...totals];
  }, [drivers]);

  return (
    <>
      <PageHeader title="Mapa en vivo" description={description}>
        <LiveBadge status={status} />
      </PageHeader>
      <Notice kind="error">{error}</Notice>
      <div className="mapa-vivo">
        <div ref={container} className={hasTiles ? "mapa" : "mapa mapa--sin-teselas"} />
        <aside className="tarjeta" aria-label="Resumen">
          <h2>{counted(drivers.size, "conductor conectado", "conductores conectados")}</h2>
          <ul className="leyenda">
            {(Object.keys(DRIVER_STATES) as EstadoConductorEnVivo[]).map((state) => (
              <li key={state}>
                <span className={`leyenda__punto ${stateClass(state)}`} aria-hidden="true" />
                {DRIVER_STATES[state]}: <strong>{counts[state]}</strong>
              </li>
            ))}
          </ul>
          {byVehicle.length > 0 && (
            <p className="tabla__secundario">{byVehicle.map(([type, total]) => `${labelOf(VEHICLE_TYPES, type)} ${total}`).join(" · ")}</p>
          )}
          {!hasTiles && (
            <p className="tabla__secundario">Sin servidor de mapas (MAP_TILES_URL): se dibuja el contorno aproximado de Medellín.</p>
          )}
        </aside>
      </div>
      <section className="tarjeta">
        <h2>Viajes activos ({trips.size})</h2>
        {loading && trips.size === 0 ? (
          <Loading />
        ) : (
          <DataTable
            caption="Viajes activos"
            columns={tripColumns}
            rows={[...trips.values()]}
            rowKey={(trip) => trip.id}
            empty="No hay viajes activos ahora."
          />
        )}
      </section>
    </>
  );
}
