import { useEffect, useMemo, useRef, useState } from "react";
import { useQuery } from "../../api/hooks";
import { useSubscription } from "../../api/live";
import { success } from "../../api/result";
import { type Column, DataTable } from "../../components/data-table";
import { LiveBadge } from "../../components/live-badge";
import { Loading, Notice } from "../../components/notice";
import { PageHeader } from "../../components/page-header";
import { dateTime } from "../../format";
import {
  type ConductorEnMapaFragment,
  ConductoresEnVivoDocument,
  type EstadoConductorEnVivo,
  OperacionesEnVivoDocument,
  type ViajeActivoFragment,
} from "../../gql/graphql";
import { labelOf, TRIP_STATES, VEHICLE_TYPES } from "../../labels";
import { useCityMap } from "../../map/city-map";
import { DriverLayer } from "./driver-layer";
import { DRIVER_STATES, stateClass } from "./driver-states";

/** The Aburrá valley around Medellín: the area the page follows. */
const AREA = { norte: 6.42, sur: 6.08, este: -75.45, oeste: -75.72 };
const FINISHED = new Set(["completado", "cancelado"]);

const tripColumns: Column<ViajeActivoFragment>[] = [
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
  { header: "Pedido", cell: (trip) => dateTime(trip.fecha_solicitud) },
];

const byId = <T,>(rows: readonly T[], id: (row: T) => number) => new Map(rows.map((row) => [id(row), row]));

export function LiveMapPage() {
  const { container, map, hasTiles } = useCityMap("Mapa de Medellín con los conductores conectados");
  const [drivers, setDrivers] = useState(new Map<number, ConductorEnMapaFragment>());
  const [trips, setTrips] = useState(new Map<number, ViajeActivoFragment>());
  const {
    data: first,
    error,
    loading,
  } = useQuery(ConductoresEnVivoDocument, AREA, (data) => ({
    drivers: success(data.liveDrivers).data,
    trips: success(data.trips).items,
  }));
  useEffect(() => {
    if (!first) return;
    setDrivers(byId(first.drivers, (driver) => driver.conductor_id));
    setTrips(byId(first.trips, (trip) => trip.id));
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
      <PageHeader title="Mapa en vivo" description="Conductores conectados y viajes en curso en el valle de Aburrá.">
        <LiveBadge status={status} />
      </PageHeader>
      <Notice kind="error">{error}</Notice>
      <div className="mapa-vivo">
        <div ref={container} className={hasTiles ? "mapa" : "mapa mapa--sin-teselas"} />
        <aside className="tarjeta" aria-label="Resumen">
          <h2>{drivers.size} conductores conectados</h2>
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
