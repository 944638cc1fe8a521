import { randomInt } from "node:crypto";
import { z } from "zod";
import type { Notification, Trip } from "../../db/models.js";
import { authorize, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { InvalidStateError, ValidationError } from "../errors.js";
import { announce, createNotification } from "../notifications/notifications.js";
import { fieldParser, optional } from "../validation.js";
import { TRIP_RULES } from "./access.js";
import { announceTrip } from "./announce.js";
import { recordTripEvent } from "./history.js";
import { getTrip } from "./queries.js";

/** Wrong PINs a trip takes; after them only its passenger, in their app, lets it start. */
export const MAX_PIN_ATTEMPTS = 5;

/** Four digits, drawn when a driver accepts the trip. */
export const drawPin = () => String(randomInt(0, 10_000)).padStart(4, "0");

const parsePin = fieldParser(
  "pin",
  optional(
    z
      .string({ error: "debe ser un texto de 4 dígitos" })
      .trim()
      .regex(/^\d{4}$/, "debe tener 4 dígitos"),
  ),
);

const locked = () =>
  new ValidationError(
    `ya se intentaron ${MAX_PIN_ATTEMPTS} PIN incorrectos: el viaje solo puede iniciarse cuando el pasajero confirme el inicio en su app`,
    "pin",
  );

/**
 * Whether `trip` may start with the PIN the driver sent: always when its passenger does not verify
 * with a PIN or confirmed the start in their app; otherwise only with the trip's PIN, and never after
 * MAX_PIN_ATTEMPTS wrong ones. A wrong PIN is counted and kept in the trip's history even though the
 * start is refused (that record is the point of it); the right one is recorded by the start itself.
 * Answers whether the PIN was checked.
 */
export async function checkStartPin(deps: Deps, actor: Actor, trip: Trip, pinInput: unknown): Promise<boolean> {
  const pin = parsePin(pinInput);
  if (trip.inicio_confirmado_en !== null || trip.usuario_id === null) return false;
  const passenger = await deps.db.user.findUnique({ where: { id: trip.usuario_id }, select: { verificar_pin: true } });
  if (!passenger?.verificar_pin) return false;
  if (trip.pin_intentos >= MAX_PIN_ATTEMPTS) throw locked();
  if (pin === undefined) throw new ValidationError("es obligatorio: el pasajero inicia sus viajes con PIN; pídeselo", "pin");
  if (pin === trip.pin_inicio) return true;

  const now = deps.clock.now();
  let notice: Notification | null = null;
  const attempts = await deps.db.$transaction(async (tx) => {
    // Counted only while under the limit, so that attempts at once never pass it.
    const { count } = await tx.trip.updateMany({
      where: { id: trip.id, pin_intentos: { lt: MAX_PIN_ATTEMPTS } },
      data: { pin_intentos: { increment: 1 } },
    });
    if (count === 0) return MAX_PIN_ATTEMPTS;
    const { pin_intentos } = await tx.trip.findUniqueOrThrow({ where: { id: trip.id }, select: { pin_intentos: true } });
    await recordTripEvent(tx, trip, "pin_incorrecto", actor, now, { intento: pin_intentos });
    if (pin_intentos === MAX_PIN_ATTEMPTS) {
      await recordTripEvent(tx, trip, "inicio_bloqueado", actor, now);
      notice = await createNotification(tx, trip.usuario_id!, {
        tipo: "viaje",
        titulo: "Confirma el inicio de tu viaje",
        mensaje: `El conductor ingresó ${MAX_PIN_ATTEMPTS} PIN incorrectos. Si ya estás en el vehículo, confirma el inicio en la app.`,
      });
    }
    return pin_intentos;
  });
  if (notice) announce(deps, notice);
  if (attempts >= MAX_PIN_ATTEMPTS) throw locked();
  const left = MAX_PIN_ATTEMPTS - attempts;
  throw new ValidationError(`no es el PIN del viaje; ${left === 1 ? "queda 1 intento" : `quedan ${left} intentos`}`, "pin");
}

/** States in which a ride has a driver and has not started. */
const CONFIRMABLE = ["aceptado", "en_ruta"];

/**
 * The passenger confirms in their app that the ride may start: the driver then starts it without
 * the PIN (the way out after too many wrong ones). Confirming again changes nothing.
 */
export async function confirmTripStart(deps: Deps, actor: Actor, tripId: unknown): Promise<Trip> {
  const trip = await getTrip(deps, tripId);
  authorize(actor, TRIP_RULES.startPin, trip);
  if (trip.inicio_confirmado_en !== null) return trip;
  const notStarted = (state: string) =>
    new InvalidStateError(`El viaje ${trip.id} está ${state}: solo se confirma el inicio de un viaje aceptado que no ha empezado`);
  if (!CONFIRMABLE.includes(trip.estado)) throw notStarted(trip.estado);
  const now = deps.clock.now();
  const confirmed = await deps.db.$transaction(async (tx) => {
    const { count } = await tx.trip.updateMany({
      where: { id: trip.id, inicio_confirmado_en: null, estado: { in: CONFIRMABLE } },
      data: { inicio_confirmado_en: now },
    });
    if (count === 1) await recordTripEvent(tx, trip, "inicio_confirmado", actor, now);
    return tx.trip.findUniqueOrThrow({ where: { id: trip.id } });
  });
  // Started or cancelled meanwhile.
  if (confirmed.inicio_confirmado_en === null) throw notStarted(confirmed.estado);
  announceTrip(deps, confirmed);
  return confirmed;
}
