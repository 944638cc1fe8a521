import type { z } from "zod";
import type { Tx } from "../../db/client.js";
import { ValidationError } from "../errors.js";
import { latitude, longitude, optional, text } from "../validation.js";

/** The fields of a user's primary location, as accepted on register and profile update. */
export const locationFields = {
  direccion: optional(text(300)),
  ciudad: optional(text(120)),
  departamento: optional(text(120)),
  pais: optional(text(120)),
  codigo_postal: optional(text(20)),
  latitud: optional(latitude()),
  longitud: optional(longitude()),
};

export type LocationInput = { [K in keyof typeof locationFields]?: z.output<(typeof locationFields)[K]> };

const KEYS = Object.keys(locationFields) as Array<keyof LocationInput>;

/** Coordinates only make sense as a pair. */
export function assertCoordinatePair(location: LocationInput): void {
  if ((location.latitud === undefined) !== (location.longitud === undefined)) {
    const missing = location.latitud === undefined ? "latitud" : "longitud";
    throw new ValidationError("es obligatorio cuando se envía la otra coordenada", missing);
  }
}

/** Updates the user's primary location with the fields given, creating it if there is none. */
export async function savePrimaryLocation(tx: Tx, userId: number, location: LocationInput): Promise<void> {
  const data = Object.fromEntries(KEYS.filter((k) => location[k] !== undefined).map((k) => [k, location[k]]));
  if (Object.keys(data).length === 0) return;
  const primary = await tx.userLocation.findFirst({ where: { usuario_id: userId, es_principal: true } });
  if (primary) await tx.userLocation.update({ where: { id: primary.id }, data });
  else await tx.userLocation.create({ data: { ...data, usuario_id: userId, es_principal: true } });
}
