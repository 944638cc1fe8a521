import { createHash, randomBytes } from "node:crypto";
import type { Prisma, Tx } from "../../db/client.js";
import type { Trip } from "../../db/models.js";
import type { ReadsOf } from "../../db/planned-reads.js";
import type { Deps } from "../deps.js";
import { isFinal } from "../trip-states.js";

/** 256 random bits: a link nobody can guess or list. */
const TOKEN_BYTES = 32;
/** A link keeps showing its trip this long after the trip ends. */
export const SHARE_AFTER_END_MS = 30 * 60 * 1000;

/** Only this is kept of a token: a database read reveals no link. */
const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

/** The page a link opens. */
const shareUrl = (deps: Deps, token: string) => `${deps.safety.publicUrl}/seguimiento/${token}`;

/** What a link is read with for the person who made it: the names of the contacts it was mailed to, in the order they were told. */
export const TOLD = { avisados: { select: { nombre: true }, orderBy: { id: "asc" } } } satisfies Prisma.TripShareInclude;

/**
 * Makes a link to follow `trip`, in the caller's transaction, and records by name the emergency
 * contacts it is about to be mailed to (`told`). Its token is answered once, to be handed to the
 * person who made it or mailed, and never stored.
 */
export async function createTripShare(tx: Tx, deps: Deps, trip: Trip, creadoPor: number, now: Date, told: string[] = []) {
  const token = randomBytes(TOKEN_BYTES).toString("base64url");
  const share = await tx.tripShare.create({
    data: {
      viaje_id: trip.id,
      creado_por: creadoPor,
      token_hash: hashOf(token),
      creado_en: now,
      avisados: { create: told.map((nombre) => ({ nombre })) },
    },
    include: TOLD,
  });
  return { share, token, url: shareUrl(deps, token) };
}

/** What a link's page may show of its trip, and what decides whether it still shows it: nothing else is read. */
const SHOWN = {
  id: true,
  viaje_id: true,
  creado_en: true,
  revocado_en: true,
  viaje: {
    select: {
      id: true,
      estado: true,
      conductor_id: true,
      origen_direccion: true,
      origen_latitud: true,
      origen_longitud: true,
      destino_direccion: true,
      destino_latitud: true,
      destino_longitud: true,
      distancia_km: true,
      duracion_estimada_minutos: true,
      fecha_inicio: true,
      fecha_fin: true,
      fecha_cancelacion: true,
      usuario: { select: { nombre: true } },
      conductor: {
        select: {
          nombre: true,
          perfil_conductor: {
            select: {
              vehiculo: { select: { tipo: true, marca: true, color: true, placa: true } },
              estado: { select: { latitud: true, longitud: true, posicion_en: true } },
            },
          },
        },
      },
    },
  },
} satisfies Prisma.TripShareSelect;

export type SharedLink = Prisma.TripShareGetPayload<{ select: typeof SHOWN }>;

/**
 * The link a token names, with what its page may show, or null when no link has it. Any string
 * is hashed and looked up in the same single statement, so a token that names no link costs what
 * one revoked or expired does.
 */
export const findShare = (reads: ReadsOf<"tripShare">, token: string): Promise<SharedLink | null> =>
  reads.tripShare.findUnique({ where: { token_hash: hashOf(token) }, select: SHOWN });

/** A link that shows its trip, with the trip's stops. */
export type ShownLink = SharedLink & { paradas: Array<{ direccion: string; latitud: number; longitud: number; salida_en: Date | null }> };

/** The stops of a showing link's trip, read apart so that looking a token up stays one statement whatever it names. */
export async function withStops(reads: ReadsOf<"tripStop">, link: SharedLink): Promise<ShownLink> {
  const paradas = await reads.tripStop.findMany({
    where: { viaje_id: link.viaje.id },
    orderBy: { orden: "asc" },
    select: { direccion: true, latitud: true, longitud: true, salida_en: true },
  });
  return { ...link, paradas };
}

/** When the link stops showing its trip by itself: 30 minutes after the trip ends; null while the trip goes on. */
export function showsUntil(link: { creado_en: Date; viaje: Pick<Trip, "estado" | "fecha_fin" | "fecha_cancelacion"> }): Date | null {
  const trip = link.viaje;
  if (!isFinal(trip.estado)) return null;
  const ended = trip.fecha_fin ?? trip.fecha_cancelacion ?? link.creado_en;
  return new Date(ended.getTime() + SHARE_AFTER_END_MS);
}

/** Whether a link still shows its trip at `now`: not revoked, and its trip not ended more than 30 minutes ago. */
export function isShowing(link: Parameters<typeof showsUntil>[0] & { revocado_en: Date | null }, now: Date): boolean {
  if (link.revocado_en) return false;
  const until = showsUntil(link);
  return until === null || now < until;
}
