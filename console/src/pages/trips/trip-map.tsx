import L from "leaflet";
import { useEffect, useState } from "react";
import { useQuery } from "../../api/hooks";
import { useSubscription } from "../../api/live";
import { success } from "../../api/result";
import { ConductorDelViajeDocument, type EstadoViaje, RutaDelViajeDocument } from "../../gql/graphql";
import { tooltipText, useCityMap } from "../../map/city-map";
import { stateClass } from "../live-map/driver-states";
import { hasDriver } from "./trip-states";

interface Point {
  latitud: number;
  longitud: number;
}

const latLng = (point: Point): L.LatLngTuple => [point.latitud, point.longitud];
// A place as the route query takes it: the trip's ones also carry an address and a __typename.
const placeOf = (point: Point) => ({ latitud: point.latitud, longitud: point.longitud });

const DOT = { radius: 8, weight: 2, fillOpacity: 1 };
// The driver is drawn as on the live map, as a driver on a trip.
const DRIVER_CLASS = stateClass("en_viaje");

/** What the map draws of a trip: its ends and, when known, its driver and where they last were. */
export interface MapTrip {
  id: number;
  estado: EstadoViaje;
  origen: Point & { direccion: string };
  destino: Point & { direccion: string };
  conductor?: { nombre: string; apellido: string } | null;
  ubicacion_conductor?: Point | null;
}

/**
 * The trip on the city map: where it starts and ends, the road between them and, while one is
 * assigned and `followDriver` (for those who may follow them), the driver.
 */
export function TripMap({ trip, followDriver = true }: { trip: MapTrip; followDriver?: boolean }) {
  const { container, map, hasTiles } = useCityMap(`Mapa del recorrido del viaje #${trip.id}`);
  const { origen, destino } = trip;
  const route = useQuery(
    RutaDelViajeDocument,
    { origen: placeOf(origen), destino: placeOf(destino) },
    (data) => success(data.route).puntos,
  );

  const [moved, setMoved] = useState<Point | null>(null);
  const following = followDriver && hasDriver(trip);
  useSubscription(ConductorDelViajeDocument, following ? { trip_id: trip.id } : null, (data) => setMoved(data.driverLocation));
  const driver = following ? (moved ?? trip.ubicacion_conductor ?? null) : null;

  // The ends and the road, in view; fitted again when the road arrives.
  useEffect(() => {
    if (!map) return;
    const layers = L.layerGroup().addTo(map);
    if (route.data) L.polyline(route.data.map(latLng), { className: "ruta-viaje", weight: 4 }).addTo(layers);
    for (const [end, place] of [
      ["Origen", origen],
      ["Destino", destino],
    ] as const) {
      L.circleMarker(latLng(place), { ...DOT, className: `punto-viaje punto-viaje--${end.toLowerCase()}` })
        .bindTooltip(tooltipText(`${end}: ${place.direccion}`))
        .addTo(layers);
    }
    const bounds = L.latLngBounds([latLng(origen), latLng(destino), ...(route.data ?? []).map(latLng)]);
    // At once: the road arrives after the map is drawn, and the trip is what the dialog opened to see.
    map.fitBounds(bounds, { padding: [28, 28], maxZoom: 16, animate: false });
    return () => {
      layers.remove();
    };
  }, [map, route.data, origen, destino]);

  const driverName = trip.conductor ? `${trip.conductor.nombre} ${trip.conductor.apellido}` : "El conductor";
  const lat = driver?.latitud;
  const lng = driver?.longitud;
  useEffect(() => {
    if (!map || lat === undefined || lng === undefined) return;
    const marker = L.circleMarker([lat, lng], { ...DOT, className: DRIVER_CLASS })
      .bindTooltip(tooltipText(`${driverName}, ahora`))
      .addTo(map);
    return () => {
      marker.remove();
    };
  }, [map, lat, lng, driverName]);

  return (
    <div className="mapa-viaje">
      <div ref={container} className={hasTiles ? "mapa mapa--viaje" : "mapa mapa--viaje mapa--sin-teselas"} />
      <ul className="leyenda leyenda--en-linea">
        <li>
          <span className="leyenda__punto punto-viaje--origen" aria-hidden="true" />
          Origen
        </li>
        <li>
          <span className="leyenda__punto punto-viaje--destino" aria-hidden="true" />
          Destino
        </li>
        {route.data && (
          <li>
            <span className="leyenda__linea" aria-hidden="true" />
            Ruta por carretera
          </li>
        )}
        {driver && (
          <li>
            <span className={`leyenda__punto ${DRIVER_CLASS}`} aria-hidden="true" />
            {driverName}, ahora
          </li>
        )}
      </ul>
      {route.error && <p className="tabla__secundario">Sin la ruta por carretera: {route.error}</p>}
    </div>
  );
}
