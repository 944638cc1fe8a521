import { z } from "zod";
import { USER_TYPES, type UserType } from "../domain/user-types.js";
import { TRIP_STATES, type TripState } from "../domain/trip-states.js";
import { VEHICLE_TYPE_SPELLINGS } from "./legacy-fields.js";
import { USER } from "./resources.js";

/*
 * The deployed app's own words. Where the specification defines a field its values are the
 * specification's; the envelopes and calls that only the app has (`data`, `viajes`,
 * get_trip_status.php) speak the app's words, since the app compares them letter by letter:
 * its login screen opens the administrator's home only for `administrador`, its user list shows an
 * account as active only when `es_activo == 1`, its waiting screen moves on at `aceptada`.
 */

const APP_USER_TYPES = { pasajero: "cliente", conductor: "conductor", admin: "administrador", empresa: "empresa" } as const;

const APP_TRIP_STATES = {
  pendiente: "pendiente",
  aceptado: "aceptada",
  en_ruta: "conductor_asignado",
  en_curso: "en_transito",
  completado: "completada",
  cancelado: "cancelada",
} as const satisfies Record<TripState, string>;

export const appTripState = (estado: TripState) => APP_TRIP_STATES[estado];
export const APP_TRIP_STATE = z.enum(TRIP_STATES.map((state) => APP_TRIP_STATES[state]) as [string, ...string[]]);

/** Vehicle types as the app's vehicle model names them (`motocicleta`, `carro`); mototaxi has no other name. */
const APP_VEHICLE_TYPES: Record<string, string> = Object.fromEntries(
  Object.entries(VEHICLE_TYPE_SPELLINGS).map(([app, own]) => [own, app]),
);
export const appVehicleType = (tipo: string | null) => (tipo === null ? null : (APP_VEHICLE_TYPES[tipo] ?? tipo));

type LegacyUser = z.output<typeof USER>;

/** A user as the app reads it: its role names and 1/0 switches. */
export const appUser = <U extends Pick<LegacyUser, "tipo_usuario" | "es_activo" | "es_verificado">>(user: U) => ({
  ...user,
  tipo_usuario: APP_USER_TYPES[user.tipo_usuario as UserType],
  es_activo: user.es_activo ? 1 : 0,
  es_verificado: user.es_verificado ? 1 : 0,
});

const flag = z.union([z.literal(0), z.literal(1)]);
export const APP_USER = USER.extend({
  tipo_usuario: z.enum(USER_TYPES.map((type) => APP_USER_TYPES[type]) as [string, ...string[]]),
  es_activo: flag,
  es_verificado: flag,
});
