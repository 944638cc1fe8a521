/**
 * What users of pingo's Flutter app send, screen by screen, with the app's own timers and
 * encodings (lib/src/features/…; see docs/performance.md), in two profiles: the deployed app, and
 * its next version. Each stream is one periodic request of one kind of user; each watch one
 * subscription a kind of user holds open instead of polling.
 */
import { pointInCity } from "./seed.js";
import type { SeededCity } from "./seed.js";

/** Session tokens of the seeded users (bench/server-process.ts, BENCH_SESSIONS), in the order of `city.drivers` and `city.passengerIds`. */
export interface SeededSessions {
  drivers: string[];
  passengers: string[];
}

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
  request: (user: number, city: SeededCity, sessions: SeededSessions) => AppRequest;
}

/** A subscription over graphql-ws, held by every user of a kind for as long as they are one. */
export interface Watch {
  label: string;
  kind: Stream["kind"];
  /** The `user`th user's document, variables and session token. */
  subscription: (
    user: number,
    city: SeededCity,
    sessions: SeededSessions,
  ) => { query: string; variables: Record<string, unknown>; token: string };
}

export interface Profile {
  name: string;
  streams: Stream[];
  watches: Watch[];
}

/** Shares of the users: drivers online, passengers looking at cars around them, passengers waiting for a driver; the rest are idle. */
export const MIX = { driver: 0.2, searching: 0.05, waiting: 0.05 } as const;

const JSON_HEADERS = { "content-type": "application/json" };
const jitter = () => (Math.random() - 0.5) * 0.001;
const cycle = <T>(list: T[], i: number) => list[i % list.length]!;

/**
 * The waiting passenger `user`: the owner of the `user`th pending trip (bench/seed.ts gives the
 * passengers at the end of the list a trip each, in order). Searching passengers are the first ones.
 */
const waitingPassenger = (user: number, city: SeededCity) =>
  city.passengerIds.length - city.pendingTripIds.length + (user % city.pendingTripIds.length);

/** The position ping, from the `user`th driver. */
const ping = (user: number, city: SeededCity, headers: Record<string, string>): AppRequest => {
  const driver = cycle(city.drivers, user);
  return {
    method: "POST",
    path: "/conductor/update_location.php",
    headers,
    body: JSON.stringify({ conductor_id: driver.conductor_id, latitud: driver.latitud + jitter(), longitud: driver.longitud + jitter() }),
  };
};

/** The cars around a passenger who is choosing a trip. */
const nearbyCars = (user: number, headers: Record<string, string>): AppRequest => {
  const { latitud, longitud } = pointInCity(0.3);
  return {
    method: "POST",
    path: "/user/find_nearby_drivers.php",
    headers,
    body: JSON.stringify({ latitud, longitud, tipo_vehiculo: user % 2 ? "moto" : "carro", radio_km: 5.0 }),
  };
};

const STREAMS: Stream[] = [
  // trip_request_search_service.dart: conductor_searching_passengers_screen.dart posts the position
  // as the phone moves (distanceFilter 10 m); here every 5 s, the same period as the poll below.
  {
    label: "POST /conductor/update_location.php",
    kind: "driver",
    periodMs: 5000,
    phase: 0,
    request: (user, city) => ping(user, city, JSON_HEADERS),
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
    request: (user) => nearbyCars(user, JSON_HEADERS),
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

/** The deployed app: callers known by the ids they send, and every screen polls. */
export const DEPLOYED_APP: Profile = { name: "deployed app", streams: STREAMS, watches: [] };

const signedIn = (token: string) => ({ ...JSON_HEADERS, authorization: `Bearer ${token}` });

/**
 * The app's next version: every call signed in with the user's own session token, and what the API
 * offers as a subscription followed over graphql-ws instead of polled: the driver's nearby requests
 * (tripRequests) and the waiting passenger's trip (tripUpdated). Pings and the cars around a
 * passenger have no subscription and are still sent.
 */
export const NEXT_APP: Profile = {
  name: "next app version",
  streams: [
    { ...STREAMS[0]!, request: (user, city, sessions) => ping(user, city, signedIn(cycle(sessions.drivers, user))) },
    {
      ...STREAMS[2]!,
      request: (user, _city, sessions) => nearbyCars(user, signedIn(cycle(sessions.passengers, user))),
    },
  ],
  watches: [
    {
      label: "subscription tripRequests",
      kind: "driver",
      subscription: (user, city, sessions) => ({
        query: "subscription ($id: Int!) { tripRequests(conductorId: $id) { tipo viaje { id } } }",
        variables: { id: cycle(city.drivers, user).conductor_id },
        token: cycle(sessions.drivers, user),
      }),
    },
    {
      label: "subscription tripUpdated",
      kind: "waiting",
      subscription: (user, city, sessions) => ({
        query: "subscription ($id: Int!) { tripUpdated(trip_id: $id) { id estado } }",
        variables: { id: cycle(city.pendingTripIds, user) },
        token: sessions.passengers[waitingPassenger(user, city)]!,
      }),
    },
  ],
};

/** How many users of each kind `users` holds. */
export const usersOf = (users: number, kind: Stream["kind"]) => Math.round(users * MIX[kind]);

/** Requests a second a profile's streams ask for from `users` users. */
export const rateOf = (profile: Profile, users: number) =>
  profile.streams.reduce((sum, s) => sum + (usersOf(users, s.kind) * 1000) / s.periodMs, 0);
