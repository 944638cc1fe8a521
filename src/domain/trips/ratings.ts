import { z } from "zod";
import type { Tx } from "../../db/client.js";
import { lockUser } from "../../db/locks.js";
import type { Trip } from "../../db/models.js";
import { authorize, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { announceTrip } from "./announce.js";
import { InvalidStateError } from "../errors.js";
import { integer, optional, parseInput, positiveId, text, type Raw } from "../validation.js";
import { TRIP_RULES } from "./access.js";
import { getTrip } from "./queries.js";
import { round } from "../numbers.js";

const ratingSchema = z.object({
  trip_id: positiveId(),
  calificacion: integer().min(1, "debe estar entre 1 y 5").max(5, "debe estar entre 1 y 5"),
  comentario: optional(text(500)),
});

export type RatingInput = Raw<typeof ratingSchema>;

/** The two sides of a trip: who rates whom, and where the rating is kept. */
const SIDES = {
  conductor: {
    score: "calificacion_conductor",
    comment: "comentario_conductor",
    rated: "conductor_id",
    rule: TRIP_RULES.rateDriver,
    raterName: "el pasajero",
  },
  pasajero: {
    score: "calificacion_usuario",
    comment: "comentario_usuario",
    rated: "usuario_id",
    rule: TRIP_RULES.ratePassenger,
    raterName: "el conductor",
  },
} as const;

type Side = keyof typeof SIDES;

/** A user's average over every rating received, as driver and as passenger. */
async function refreshAverage(tx: Tx, userId: number): Promise<void> {
  const [asDriver, asPassenger] = await Promise.all([
    tx.trip.aggregate({
      where: { conductor_id: userId, calificacion_conductor: { not: null } },
      _sum: { calificacion_conductor: true },
      _count: { calificacion_conductor: true },
    }),
    tx.trip.aggregate({
      where: { usuario_id: userId, calificacion_usuario: { not: null } },
      _sum: { calificacion_usuario: true },
      _count: { calificacion_usuario: true },
    }),
  ]);
  const count = asDriver._count.calificacion_conductor + asPassenger._count.calificacion_usuario;
  const sum = (asDriver._sum.calificacion_conductor ?? 0) + (asPassenger._sum.calificacion_usuario ?? 0);
  await tx.user.update({
    where: { id: userId },
    data: { total_calificaciones: count, calificacion: count === 0 ? 0 : round(sum / count) },
  });
}

/**
 * Rates one side of a completed trip, once. The rated user's row is locked while their average
 * is recomputed, so simultaneous ratings of one driver all count.
 */
async function rate(deps: Deps, actor: Actor, side: Side, input: RatingInput): Promise<Trip> {
  const { trip_id, calificacion, comentario } = parseInput(ratingSchema, input);
  const { score, comment, rated, rule, raterName } = SIDES[side];
  const trip = await getTrip(deps, trip_id);
  authorize(actor, rule, trip);
  if (trip.estado !== "completado") throw new InvalidStateError(`Solo se califican viajes completados; este está ${trip.estado}`);
  const updated = await deps.db.$transaction(async (tx) => {
    const { count } = await tx.trip.updateMany({
      where: { id: trip.id, estado: "completado", [score]: null },
      data: { [score]: calificacion, [comment]: comentario ?? null },
    });
    if (count === 0) throw new InvalidStateError(`${raterName[0]!.toUpperCase()}${raterName.slice(1)} ya calificó este viaje`);
    const ratedId = trip[rated];
    if (ratedId !== null) {
      await lockUser(tx, deps.provider, ratedId);
      await refreshAverage(tx, ratedId);
    }
    return tx.trip.findUniqueOrThrow({ where: { id: trip.id } });
  });
  announceTrip(deps, updated);
  return updated;
}

/** The passenger rates the driver. */
export const rateDriver = (deps: Deps, actor: Actor, input: RatingInput) => rate(deps, actor, "conductor", input);
/** The driver rates the passenger. */
export const ratePassenger = (deps: Deps, actor: Actor, input: RatingInput) => rate(deps, actor, "pasajero", input);
