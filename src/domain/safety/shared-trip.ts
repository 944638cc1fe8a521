import { firstName } from "../accounts/names.js";
import type { Deps } from "../deps.js";
import { roadKm, type Point } from "../geo.js";
import { modelSpeed } from "../maps/speed.js";
import { ASSIGNED_STATES, isFinal, type TripState } from "../trip-states.js";
import type { SharedLink, ShownLink } from "./share-links.js";

/** A place of the trip as its page shows it. */
interface SharedPlace extends Point {
  direccion: string;
}

/**
 * A trip as whoever holds its link sees it, and nothing more: first names only, the vehicle as it
 * is seen on the street, the driver's position only while they are on this trip. Never a phone
 * number, an e-mail, a surname, an id or anything of another trip.
 */
export interface SharedTrip {
  estado: TripState;
  /** The passenger's first name. */
  pasajero: string | null;
  /** The driver's first name, once one is assigned. */
  conductor: string | null;
  vehiculo: { tipo: string | null; marca: string | null; color: string | null; placa: string | null } | null;
  /** Where the driver is, and when they said so, while they are on the trip. */
  posicion: (Point & { en: Date }) | null;
  origen: SharedPlace;
  destino: SharedPlace;
  /** The stops on the way, in order, and whether the driver has left each behind. */
  paradas: Array<SharedPlace & { visitada: boolean }>;
  /** When the trip should reach its destination, while it goes on and the driver's position or start is known. */
  llegada_estimada: Date | null;
  /** When it was completed or cancelled. */
  terminado_en: Date | null;
}

const onTrip = (state: string) => (ASSIGNED_STATES as readonly string[]).includes(state);

/** Where the trip's driver is: what this process heard last (every process hears every position), else what the database keeps. */
export function driverPosition(deps: Pick<Deps, "matching">, link: SharedLink): SharedTrip["posicion"] {
  const trip = link.viaje;
  if (trip.conductor_id === null || !onTrip(trip.estado)) return null;
  const heard = deps.matching.presence.get(trip.conductor_id)?.posicion;
  if (heard) return { latitud: heard.latitud, longitud: heard.longitud, en: heard.at };
  const stored = trip.conductor?.perfil_conductor?.estado;
  if (stored?.latitud == null || stored.longitud == null || !stored.posicion_en) return null;
  return { latitud: stored.latitud, longitud: stored.longitud, en: stored.posicion_en };
}

/**
 * When the trip should arrive: from the driver's position, along the streets at the city's usual
 * speed for the hour (through the pickup first when the passenger is not on board yet); without a
 * position, from the start plus the estimated duration.
 */
function arrival(link: SharedLink, position: Point | null, now: Date): Date | null {
  const trip = link.viaje;
  if (!onTrip(trip.estado)) return null;
  const destination = { latitud: trip.destino_latitud, longitud: trip.destino_longitud };
  const pickup = { latitud: trip.origen_latitud, longitud: trip.origen_longitud };
  const onBoard = trip.estado === "en_curso";
  if (!position) {
    return onBoard && trip.fecha_inicio ? new Date(trip.fecha_inicio.getTime() + trip.duracion_estimada_minutos * 60_000) : null;
  }
  const km = onBoard ? roadKm(position, destination) : roadKm(position, pickup) + trip.distancia_km;
  return new Date(now.getTime() + (km / modelSpeed(now)) * 3600_000);
}

/** The trip of a link that shows it, with the driver at `position`. */
export function sharedTrip(link: ShownLink, position: SharedTrip["posicion"], now: Date): SharedTrip {
  const trip = link.viaje;
  const shownPosition = onTrip(trip.estado) ? position : null;
  const vehicle = trip.conductor?.perfil_conductor?.vehiculo ?? null;
  return {
    estado: trip.estado as TripState,
    pasajero: firstName(trip.usuario?.nombre),
    conductor: firstName(trip.conductor?.nombre),
    vehiculo: vehicle && { tipo: vehicle.tipo, marca: vehicle.marca, color: vehicle.color, placa: vehicle.placa },
    posicion: shownPosition,
    origen: { direccion: trip.origen_direccion, latitud: trip.origen_latitud, longitud: trip.origen_longitud },
    destino: { direccion: trip.destino_direccion, latitud: trip.destino_latitud, longitud: trip.destino_longitud },
    paradas: link.paradas.map(({ salida_en, ...stop }) => ({ ...stop, visitada: salida_en !== null })),
    llegada_estimada: arrival(link, shownPosition, now),
    terminado_en: isFinal(trip.estado) ? (trip.fecha_fin ?? trip.fecha_cancelacion) : null,
  };
}
