import { z } from "zod";
import type { Db, Tx } from "../../db/client.js";
import { lockUser } from "../../db/locks.js";
import type { SavedPlace } from "../../db/models.js";
import { owner, signedIn, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { ConflictError, NotFoundError, ValidationError } from "../errors.js";
import type { PlaceInput } from "../maps/place.js";
import { fieldParser, latitude, longitude, oneOf, optional, parseInput, positiveId, text, type Raw } from "../validation.js";

/** A saved place is a casa or a trabajo (one of each), or one of the favoritos. */
export const PLACE_KINDS = ["casa", "trabajo", "favorito"] as const;
export type PlaceKind = (typeof PLACE_KINDS)[number];

/** How many favoritos a person keeps, besides their casa and trabajo. */
export const MAX_FAVOURITES = 10;

/** What a casa or a trabajo is called when it is saved without a name. */
const DEFAULT_NAMES: Partial<Record<PlaceKind, string>> = { casa: "Casa", trabajo: "Trabajo" };

const placeSchema = z.object({
  tipo: oneOf(PLACE_KINDS),
  nombre: optional(text(60)),
  direccion: text(300),
  latitud: latitude(),
  longitud: longitude(),
  referencia: optional(text(300)),
});
const removalSchema = z.object({ lugar_id: positiveId() });

// Each person handles their own places only, so somebody else's is as unknown as one that never was.
const own = signedIn;

const KIND_ORDER: Record<string, number> = { casa: 0, trabajo: 1, favorito: 2 };

/** A person's places: the casa, the trabajo, then the favoritos from the oldest. */
async function placesOf(db: Db | Tx, usuarioId: number): Promise<SavedPlace[]> {
  const places = await db.savedPlace.findMany({ where: { usuario_id: usuarioId }, orderBy: { id: "asc" } });
  return places.sort((a, b) => (KIND_ORDER[a.tipo] ?? 3) - (KIND_ORDER[b.tipo] ?? 3));
}

/** The caller's saved places. */
export function savedPlaces(deps: Deps, actor: Actor): Promise<SavedPlace[]> {
  return placesOf(deps.db, owner(actor, own).id);
}

/**
 * The caller saves a place. A casa or a trabajo replaces the one they had; a favorito is refused
 * (409) past MAX_FAVOURITES. Done holding the caller's row, so two saves at once never leave two
 * casas or an eleventh favorito.
 */
export async function savePlace(deps: Deps, actor: Actor, input: Raw<typeof placeSchema>): Promise<SavedPlace> {
  const me = owner(actor, own);
  const place = parseInput(placeSchema, input);
  const nombre = place.nombre ?? DEFAULT_NAMES[place.tipo];
  if (!nombre) throw new ValidationError("es obligatorio para un lugar favorito", "nombre");
  return deps.db.$transaction(async (tx) => {
    await lockUser(tx, deps.provider, me.id);
    if (place.tipo === "favorito") {
      if ((await tx.savedPlace.count({ where: { usuario_id: me.id, tipo: "favorito" } })) >= MAX_FAVOURITES) {
        throw new ConflictError(`Ya tienes ${MAX_FAVOURITES} lugares favoritos; quita uno para agregar otro`);
      }
    } else await tx.savedPlace.deleteMany({ where: { usuario_id: me.id, tipo: place.tipo } });
    return tx.savedPlace.create({
      data: {
        usuario_id: me.id,
        tipo: place.tipo,
        nombre,
        direccion: place.direccion,
        latitud: place.latitud,
        longitud: place.longitud,
        referencia: place.referencia ?? null,
        creado_en: deps.clock.now(),
      },
    });
  });
}

/** The caller removes one of their places; anyone else's is as unknown as one that never was. */
export async function removeSavedPlace(deps: Deps, actor: Actor, input: Raw<typeof removalSchema>): Promise<number> {
  const me = owner(actor, own);
  const { lugar_id } = parseInput(removalSchema, input);
  const { count } = await deps.db.savedPlace.deleteMany({ where: { id: lugar_id, usuario_id: me.id } });
  if (count === 0) throw new NotFoundError(`No tienes un lugar guardado con id ${lugar_id}`);
  return lugar_id;
}

/** A request that may name its places by the passenger's saved places instead of sending them. */
export interface NamingPlaces {
  origen?: unknown;
  destino?: unknown;
  lugar_origen_id?: unknown;
  lugar_destino_id?: unknown;
}

const NAMED_BY = [
  ["origen", "lugar_origen_id"],
  ["destino", "lugar_destino_id"],
] as const;
type SavedPlaceField = (typeof NAMED_BY)[number][1];
const placeIds = {
  lugar_origen_id: fieldParser("lugar_origen_id", positiveId()),
  lugar_destino_id: fieldParser("lugar_destino_id", positiveId()),
};

/**
 * The place a request names by one of its owner's saved places (`field` says which input named it),
 * as a place input: a 400 naming the field when it is not one of theirs.
 */
async function savedPlaceInput(deps: Deps, usuarioId: number, lugarId: unknown, field: SavedPlaceField): Promise<PlaceInput> {
  const id = placeIds[field](lugarId);
  const place = await deps.db.savedPlace.findFirst({ where: { id, usuario_id: usuarioId } });
  if (!place) throw new ValidationError(`no es uno de tus lugares guardados (${id})`, field);
  return { direccion: place.direccion, latitud: place.latitud, longitud: place.longitud, referencia: place.referencia ?? undefined };
}

/** `request` with each place it names by a saved place of `usuarioId` filled in; a place sent both ways is a 400. */
export async function withSavedPlaces<R extends NamingPlaces>(deps: Deps, usuarioId: number, request: R): Promise<R> {
  const resolved = { ...request };
  for (const [place, saved] of NAMED_BY) {
    const id = request[saved];
    if (id === undefined || id === null) continue;
    if (request[place] !== undefined && request[place] !== null) throw new ValidationError(`envía ${place} o ${saved}, no ambos`, saved);
    resolved[place] = await savedPlaceInput(deps, usuarioId, id, saved);
  }
  return resolved;
}
