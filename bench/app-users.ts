/**
 * What users of pingo's Flutter app send, screen by screen, with the app's own timers and
 * encodings (lib/src/features/…; see docs/performance.md). Each stream is one periodic request
 * of one kind of user; a driver has two.
 */
import { pointInCity } from "./seed.js";
import type { SeededCity } from "./seed.js";

export interface AppRequest {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Stream {
  /** The path, as the table names it. */
  label: string;
  /** Which users send it, a share of all of them. */
  kind: "driver" | "searching" | "waiting";
  periodMs: number;
  /** Where in the period the user's request falls after their first one, as a share of the period. */
  phase: number;
  /** The request of the `user`th user of this kind. */
  request: (user: number, city: SeededCity) => AppRequest;
}

/** Shares of the users: drivers online, passengers looking at cars around them, passengers waiting for a driver; the rest are idle. */
export const MIX = { driver: 0.2, searching: 0.05, waiting: 0.05 } as const;

const JSON_HEADERS = { "content-type": "application/json" };
const jitter = () => (Math.random() - 0.5) * 0.001;
const cycle = <T>(list: T[], i: number) => list[i % list.length]!;

export const STREAMS: Stream[] = [
  // trip_request_search_service.dart: conductor_searching_passengers_screen.dart posts the position
  // as the phone moves (distanceFilter 10 m); here every 5 s, the same period as the poll below.
  {
    label: "POST /conductor/update_location.php",
    kind: "driver",
    periodMs: 5000,
    phase: 0,
    request: (user, city) => {
      const driver = cycle(city.drivers, user);
      return {
        method: "POST",
        path: "/conductor/update_location.php",
        headers: JSON_HEADERS,
        body: JSON.stringify({
          conductor_id: driver.conductor_id,
          latitud: driver.latitud + jitter(),
          longitud: driver.longitud + jitter(),
        }),
      };
    },
  },
  // trip_request_search_service.dart, searchIntervalSeconds = 5, started by conductor_home_screen.dart.
  {
    label: "POST /conductor/get_solicitudes_pendientes.php",
    kind: "driver",
    periodMs: 5000,
    phase: 0.5,
    request: (user, city) => {
      const driver = cycle(city.drivers, user);
      return {
        method: "POST",
        path: "/conductor/get_solicitudes_pendientes.php",
        headers: JSON_HEADERS,
        body: JSON.stringify({
          conductor_id: driver.conductor_id,
          latitud_actual: driver.latitud,
          longitud_actual: driver.longitud,
          radio_km: 5.0,
        }),
      };
    },
  },
  // searching_driver_screen.dart: Timer.periodic 3 s → TripRequestService.findNearbyDrivers.
  {
    label: "POST /user/find_nearby_drivers.php",
    kind: "searching",
    periodMs: 3000,
    phase: 0,
    request: (user) => {
      const { latitud, longitud } = pointInCity(0.3);
      return {
        method: "POST",
        path: "/user/find_nearby_drivers.php",
        headers: JSON_HEADERS,
        body: JSON.stringify({ latitud, longitud, tipo_vehiculo: user % 2 ? "moto" : "carro", radio_km: 5.0 }),
      };
    },
  },
  // waiting_for_driver_screen.dart: Timer.periodic 3 s → TripRequestService.getTripStatus, a GET
  // with the id in the query string (and a JSON content type, without a body).
  {
    label: "GET /user/get_trip_status.php",
    kind: "waiting",
    periodMs: 3000,
    phase: 0,
    request: (user, city) => ({
      method: "GET",
      path: `/user/get_trip_status.php?solicitud_id=${cycle(city.pendingTripIds, user)}`,
      headers: JSON_HEADERS,
    }),
  },
];

/** How many users of each kind `users` holds. */
export const usersOf = (users: number, kind: Stream["kind"]) => Math.round(users * MIX[kind]);

/** Requests a second the streams ask for from `users` users. */
export const rateOf = (users: number) => STREAMS.reduce((sum, s) => sum + (usersOf(users, s.kind) * 1000) / s.periodMs, 0);
