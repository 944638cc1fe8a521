import { z } from "zod";
import type { Tx } from "../../db/client.js";
import type { Notification, Trip } from "../../db/models.js";
import { authorize, isAdmin, isUser, member, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { InvalidStateError, ConflictError, ValidationError } from "../errors.js";
import { closeOnlinePeriod, returnOnline } from "../drivers/availability.js";
import { assertCanOperate, loadDriver } from "../drivers/readiness.js";
import { observedSpeed } from "../maps/speed.js";
import { refreshPresence } from "../matching/online-drivers.js";
import { withdrawOffers } from "../matching/requests.js";
import { splitFare } from "../money/fare-split.js";
import { quotedCharge } from "../booking/quotes.js";
import { tellDriverAssigned } from "../booking/reservations.js";
import { deliver, nothingTold } from "../notifications/tell.js";
import { tripCompany } from "../money/company-share.js";
import { postCompletedTrip } from "../money/trip-postings.js";
import { announceBalance } from "../money/announcements.js";
import { debtBlock } from "../money/debt.js";
import { announce, createNotification } from "../notifications/notifications.js";
import { number, optional, parseInput, positiveId, text, type Raw } from "../validation.js";
import { TRIP_RULES } from "./access.js";
import { announceTrip } from "./announce.js";
import { getTrip } from "./queries.js";
import { recordTripEvent } from "./history.js";
import { checkStartPin, drawPin } from "./start-pin.js";
import { waitingCharge } from "./stops.js";
import { audit } from "../audit/audit.js";
import { VEHICLE_FOR_SERVICE, type ServiceType } from "../service-types.js";
import { ASSIGNED_STATES, TRANSITIONS, nextState, refusal, type Trigger } from "../trip-states.js";

/** Who called a trip off, as kept in cancelado_por; null when a legacy call named nobody. */
function cancelledBy(actor: Actor, trip: Trip): "pasajero" | "conductor" | "admin" | null {
  if (isUser(actor, trip.usuario_id)) return "pasajero";
  if (isUser(actor, trip.conductor_id)) return "conductor";
  return isAdmin(actor) ? "admin" : null;
}

/**
 * Moves a trip with one conditional update, so that of two simultaneous changes only one
 * applies; the loser is told why from the state it lost to.
 */
async function transition(tx: Tx, trip: Trip, trigger: Trigger, now: Date, change: { where?: object; data?: object } = {}): Promise<Trip> {
  const { from, to, date } = TRANSITIONS[trigger];
  const { count } = await tx.trip.updateMany({
    where: { id: trip.id, estado: { in: [...from] }, ...change.where },
    data: { estado: to, [date]: now, ...change.data },
  });
  if (count === 0) {
    const current = await tx.trip.findUniqueOrThrow({ where: { id: trip.id } });
    throw refusal(current.estado, trigger);
  }
  return tx.trip.findUniqueOrThrow({ where: { id: trip.id } });
}

/**
 * A driver takes a pending trip. Atomic on both databases: the driver's availability flips
 * first (so one driver cannot take two trips at once), then the trip changes only if it is
 * still pending (so one trip goes to one driver).
 */
export async function acceptTrip(deps: Deps, actor: Actor, tripId: unknown): Promise<Trip> {
  const driverId = member(actor, TRIP_RULES.request).id;
  const driver = await loadDriver(deps.db, driverId);
  const trip = await getTrip(deps, tripId);
  nextState(trip.estado, "aceptar");
  const now = deps.clock.now();
  assertCanOperate(driver, now);
  const told = nothingTold();
  const needed = VEHICLE_FOR_SERVICE[trip.tipo_servicio as ServiceType];
  if (driver.vehiculo?.tipo !== needed) {
    throw new ValidationError(`El viaje pide un vehículo '${needed}' y el tuyo es '${driver.vehiculo?.tipo}'`);
  }
  const accepted = await deps.db.$transaction(async (tx) => {
    const { count: wasOnline } = await tx.driverStatus.updateMany({
      where: { conductor_id: driverId, disponible: true },
      data: { disponible: false },
    });
    if (wasOnline === 0) throw new InvalidStateError("Debes estar en línea (disponibilidad 1) para aceptar viajes");
    const busy = await tx.trip.findFirst({ where: { conductor_id: driverId, estado: { in: [...ASSIGNED_STATES] } } });
    if (busy) throw new ConflictError(`Ya tienes un viaje activo (id ${busy.id})`);
    const company = await tripCompany(tx, driver.conductor.empresa_id, trip.fecha_solicitud);
    const updated = await transition(tx, trip, "aceptar", now, { data: { conductor_id: driverId, pin_inicio: drawPin(), ...company } });
    await closeOnlinePeriod(tx, driverId, now);
    const offer = { viaje_id: trip.id, conductor_id: driverId };
    await tx.tripOffer.upsert({
      where: { viaje_id_conductor_id: offer },
      create: { ...offer, mostrada_en: now, respuesta: "aceptada", respondida_en: now },
      update: { respuesta: "aceptada", respondida_en: now },
    });
    // A trip booked ahead: its passenger hears that a driver has it, unless a committed driver was announced already.
    await tellDriverAssigned(tx, deps, told, { viaje_id: trip.id });
    return updated;
  });
  deliver(deps, told);
  announceTrip(deps, accepted);
  await withdrawOffers(deps, accepted);
  await refreshPresence(deps, driverId);
  return accepted;
}

/** The assigned driver sets off towards the pickup. */
export async function startRoute(deps: Deps, actor: Actor, tripId: unknown): Promise<Trip> {
  const trip = await getTrip(deps, tripId);
  authorize(actor, TRIP_RULES.startRoute, trip);
  const where = { conductor_id: trip.conductor_id };
  const moved = await deps.db.$transaction((tx) => transition(tx, trip, "iniciar_ruta", deps.clock.now(), { where }));
  announceTrip(deps, moved);
  return moved;
}

/** The passenger is on board; with the trip's PIN when the passenger verifies with one (see start-pin). */
export async function startTrip(deps: Deps, actor: Actor, tripId: unknown, pin?: unknown): Promise<Trip> {
  const trip = await getTrip(deps, tripId);
  authorize(actor, TRIP_RULES.start, trip);
  nextState(trip.estado, "iniciar");
  const checked = await checkStartPin(deps, actor, trip, pin);
  const now = deps.clock.now();
  const started = await deps.db.$transaction(async (tx) => {
    const started = await transition(tx, trip, "iniciar", now);
    if (checked) await recordTripEvent(tx, trip, "pin_correcto", actor, now);
    return started;
  });
  announceTrip(deps, started);
  return started;
}

const completeSchema = z.object({
  trip_id: positiveId(),
  // Whole pesos: COP has no cents, and a price sent with them is rounded.
  precio_final: number()
    .min(0, "no puede ser negativo")
    .max(100_000_000, "es demasiado alto")
    .transform((pesos) => Math.round(pesos)),
  distancia_real: optional(number().min(0, "no puede ser negativa").max(5_000, "es demasiado alta")),
});

/**
 * The ride ends: the final price (the driver's; on a quoted trip at most the quote's, plus the
 * time waited at stops) is split into commissions and the driver's earnings at the
 * trip's rates and posted to the ledger, the real distance (when sent) replaces the estimate, the
 * real speed feeds the duration model, and the driver is back online (unless they now owe the
 * platform more than the debt limit).
 */
export async function completeTrip(deps: Deps, actor: Actor, input: Raw<typeof completeSchema>): Promise<Trip> {
  const { trip_id, precio_final: asked, distancia_real } = parseInput(completeSchema, input);
  const trip = await getTrip(deps, trip_id);
  authorize(actor, TRIP_RULES.complete, trip);
  nextState(trip.estado, "completar");
  const now = deps.clock.now();
  // The most a quoted trip is charged: its quote, and the time it waited at stops.
  const most = trip.precio_cotizado === null ? null : trip.precio_cotizado + (await waitingCharge(deps, trip, now));
  const precio_final = quotedCharge(asked, most);
  const distancia_km = distancia_real ?? trip.distancia_km;
  const speed = trip.fecha_inicio ? observedSpeed(distancia_km, trip.fecha_inicio, now) : {};
  let debtNotice: Notification | null = null;
  const completed = await deps.db.$transaction(async (tx) => {
    const completed = await transition(tx, trip, "completar", now, {
      data: { precio_final, distancia_km, ...splitFare(precio_final, trip), ...speed },
    });
    const referencia_pago = await postCompletedTrip(deps, tx, completed, now);
    // A driver who now owes more than the limit stays offline, and is told why.
    const indebted = completed.conductor_id ? await debtBlock(deps, tx, completed.conductor_id) : null;
    if (indebted)
      debtNotice = await createNotification(tx, completed.conductor_id!, {
        tipo: "saldo",
        titulo: "Deuda con la plataforma",
        mensaje: indebted,
      });
    else if (completed.conductor_id) await returnOnline(tx, completed.conductor_id, now);
    return referencia_pago ? tx.trip.update({ where: { id: completed.id }, data: { referencia_pago } }) : completed;
  });
  if (debtNotice) announce(deps, debtNotice);
  announceTrip(deps, completed);
  if (completed.conductor_id) announceBalance(deps, completed.conductor_id);
  if (completed.conductor_id) await refreshPresence(deps, completed.conductor_id);
  return completed;
}

const cancelSchema = z.object({ trip_id: positiveId(), motivo: text(500) });

/** Passenger, driver or an administrator calls the trip off, saying why; an assigned driver is back online. */
export async function cancelTrip(deps: Deps, actor: Actor, input: Raw<typeof cancelSchema>): Promise<Trip> {
  const { trip_id, motivo } = parseInput(cancelSchema, input);
  const trip = await getTrip(deps, trip_id);
  authorize(actor, TRIP_RULES.cancel, trip);
  nextState(trip.estado, "cancelar");
  const role = cancelledBy(actor, trip);
  const now = deps.clock.now();
  const cancelled = await deps.db.$transaction(async (tx) => {
    const cancelled = await transition(tx, trip, "cancelar", now, { data: { motivo_cancelacion: motivo, cancelado_por: role } });
    if (cancelled.conductor_id) await returnOnline(tx, cancelled.conductor_id, now);
    // An administrator calling off someone else's trip answers for it in the audit log.
    if (role === "admin")
      await audit(tx, deps, actor, {
        accion: "cancelar_viaje",
        objetivo_tipo: "viaje",
        objetivo_id: trip.id,
        detalles: { motivo, estado: trip.estado },
      });
    return cancelled;
  });
  announceTrip(deps, cancelled);
  if (trip.estado === "pendiente") await withdrawOffers(deps, cancelled);
  if (cancelled.conductor_id) await refreshPresence(deps, cancelled.conductor_id);
  return cancelled;
}
