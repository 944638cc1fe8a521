import { z } from "zod";
import type { Tx } from "../../db/client.js";
import { lockUser } from "../../db/locks.js";
import type { Reservation } from "../../db/models.js";
import { accountBlockReason } from "../accounts/standing.js";
import { getUser } from "../accounts/users.js";
import { authorize, isAdmin, member, type Actor } from "../actor.js";
import { audit } from "../audit/audit.js";
import type { Deps } from "../deps.js";
import { AccountDisabledError, ConflictError, InvalidStateError, NotFoundError, ValidationError } from "../errors.js";
import { deliver, nothingTold, tellUser, type Told } from "../notifications/tell.js";
import { assertAccepted } from "../payment-methods.js";
import { withSavedPlaces, type NamingPlaces } from "../places/saved-places.js";
import { localClock, localDate } from "../time.js";
import { fieldParser, optional, parseInput, positiveId, text, type Raw } from "../validation.js";
import { RESERVATION_RULES } from "./access.js";
import { parsePickupTime } from "./pickup-time.js";
import { assertUnused, quoteFor } from "./quotes.js";
import { parseRequest, priceTrip, withAddress, type ParsedRequest, type TripRequest } from "./request.js";

/** Upcoming reservations one passenger holds at once. */
export const MAX_UPCOMING = 5;

/** A reminder goes an hour before the pickup; a reservation made later than that has none. */
export const HOUR_BEFORE_MS = 3600_000;

const parseReservationId = fieldParser("reserva_id", positiveId());
const cancelSchema = z.object({ reserva_id: positiveId(), motivo: optional(text(500)) });

export type BookingRequest = TripRequest & NamingPlaces & { fecha_programada?: unknown };

/** When a reservation's pickup is, in the words people read: "2026-03-12 a las 23:00". */
export const pickupWords = (at: Date) => `${localDate(at)} a las ${localClock(at)}`;

export async function getReservation(deps: Pick<Deps, "db">, id: unknown): Promise<Reservation> {
  const reservaId = parseReservationId(id);
  const booking = await deps.db.reservation.findUnique({ where: { id: reservaId } });
  if (!booking) throw new NotFoundError(`No existe una reserva con id ${reservaId}`);
  return booking;
}

/** A reservation, for its passenger, the driver committed to it or an administrator. */
export async function viewReservation(deps: Deps, actor: Actor, id: unknown): Promise<Reservation> {
  const booking = await getReservation(deps, id);
  authorize(actor, RESERVATION_RULES.view, booking);
  return booking;
}

/** The caller's reservations as a passenger: the upcoming first, soonest first, then the rest, latest first. */
export async function myReservations(deps: Deps, actor: Actor): Promise<Reservation[]> {
  const me = member(actor, RESERVATION_RULES.book);
  const [upcoming, past] = await Promise.all([
    deps.db.reservation.findMany({ where: { usuario_id: me.id, estado: "programada" }, orderBy: { fecha_programada: "asc" } }),
    deps.db.reservation.findMany({
      where: { usuario_id: me.id, estado: { not: "programada" } },
      orderBy: { fecha_programada: "desc" },
      take: 50,
    }),
  ]);
  return [...upcoming, ...past];
}

/** Places, service, method and price of a booking, from the request and, if it names one, its quote for that time. */
async function pricedBooking(deps: Deps, passengerId: number, request: ParsedRequest, pickupAt: Date) {
  const quote = request.cotizacion_id ? await quoteFor(deps, passengerId, request.cotizacion_id, request, pickupAt) : null;
  const [origen, destino, paradas] = await Promise.all([
    withAddress(deps, request.origen),
    withAddress(deps, request.destino),
    Promise.all(request.paradas.map((stop) => withAddress(deps, stop))),
  ]);
  const priced = quote
    ? { precio: quote.precio_estimado, distancia_km: quote.distancia_km, duracion: quote.duracion_estimada_minutos }
    : await priceTrip(deps, { ...request, origen, destino, paradas }, { at: pickupAt }).then(({ fare, route }) => ({
        precio: fare.precio_estimado,
        distancia_km: route.distancia_km,
        duracion: route.duracion_minutos,
      }));
  return {
    quote,
    data: {
      tipo_servicio: request.serviceType,
      metodo_pago: request.metodo_pago,
      origen_direccion: origen.direccion,
      origen_latitud: origen.latitud,
      origen_longitud: origen.longitud,
      origen_referencia: origen.referencia ?? null,
      destino_direccion: destino.direccion,
      destino_latitud: destino.latitud,
      destino_longitud: destino.longitud,
      destino_referencia: destino.referencia ?? null,
      paradas: JSON.stringify(paradas),
      fecha_programada: pickupAt,
      precio_estimado: priced.precio,
      distancia_km: priced.distancia_km,
      duracion_estimada_minutos: priced.duracion,
      cotizacion_id: quote?.id ?? null,
      // A pickup less than an hour away has no hour-before reminder: it counts as sent.
      recordatorio_1h_en: pickupAt.getTime() - deps.clock.now().getTime() <= HOUR_BEFORE_MS ? deps.clock.now() : null,
    },
  };
}

/**
 * A passenger books a trip for a pickup time ahead (see parsePickupTime), priced for that time, or
 * by their quote for it. At most MAX_UPCOMING upcoming at once, decided holding the passenger's row.
 */
export async function bookTrip(deps: Deps, actor: Actor, input: BookingRequest): Promise<Reservation> {
  const passengerId = member(actor, RESERVATION_RULES.book).id;
  const { fecha_programada, ...trip } = input;
  const request = parseRequest(await withSavedPlaces(deps, passengerId, trip));
  const pickupAt = parsePickupTime(deps, fecha_programada);
  if (!pickupAt) throw new ValidationError("es obligatorio", "fecha_programada");
  assertAccepted(deps.payments, request.metodo_pago);
  const blocked = accountBlockReason(await getUser(deps.reads, passengerId));
  if (blocked) throw new AccountDisabledError(blocked);
  const { quote, data } = await pricedBooking(deps, passengerId, request, pickupAt);
  const now = deps.clock.now();
  return deps.db.$transaction(async (tx) => {
    await lockUser(tx, deps.provider, passengerId);
    const upcoming = await tx.reservation.count({ where: { usuario_id: passengerId, estado: "programada" } });
    if (upcoming >= MAX_UPCOMING) {
      throw new ConflictError(`Ya tienes ${MAX_UPCOMING} viajes reservados; cancela uno para reservar otro`);
    }
    if (quote) await assertUnused(tx, quote);
    return tx.reservation.create({ data: { ...data, usuario_id: passengerId, creada_en: now } });
  });
}

/** A reservation that can still change: booked and not yet dispatched. */
function assertChangeable(deps: Deps, booking: Reservation): void {
  if (booking.estado !== "programada") {
    throw new InvalidStateError(`La reserva ${booking.id} está ${booking.estado}; ya no se puede cambiar ni cancelar`);
  }
  if (booking.fecha_programada.getTime() - deps.clock.now().getTime() <= deps.booking.dispatchLeadMs) {
    throw new InvalidStateError(`La reserva ${booking.id} ya se está ofreciendo a los conductores: ya no se puede cambiar, solo cancelar`);
  }
}

/**
 * Tells the passenger, on their feed and by mail, that a driver has their reservation: when one
 * commits to it ahead or takes the trip it was dispatched as, whichever comes first; once.
 */
export async function tellDriverAssigned(tx: Tx, deps: Deps, told: Told, where: { id: number } | { viaje_id: number }): Promise<void> {
  const now = deps.clock.now();
  const booking = await tx.reservation.findFirst({ where: { ...where, aviso_conductor_en: null } });
  if (!booking) return;
  const { count } = await tx.reservation.updateMany({
    where: { id: booking.id, aviso_conductor_en: null },
    data: { aviso_conductor_en: now },
  });
  if (count === 0) return;
  await tellUser(tx, deps, told, booking.usuario_id, {
    tipo: "reserva",
    titulo: "Tu viaje reservado ya tiene conductor",
    mensaje:
      booking.viaje_id === null
        ? `Un conductor se comprometió con tu viaje del ${pickupWords(booking.fecha_programada)}; te avisaremos cuando vaya en camino.`
        : `Un conductor tomó tu viaje del ${pickupWords(booking.fecha_programada)} y va en camino.`,
  });
}

/** Ends the commitment of the driver committed to `booking` with `fin`, and tells them why, in `tx`. */
export async function releaseDriver(
  tx: Tx,
  deps: Deps,
  told: Told,
  booking: Reservation,
  fin: "liberado" | "retirado" | "retirado_tarde" | "perdido" | "cumplido",
  why?: string,
): Promise<void> {
  if (booking.conductor_id === null) return;
  const now = deps.clock.now();
  await tx.reservationCommitment.updateMany({
    where: { reserva_id: booking.id, conductor_id: booking.conductor_id, fin: null },
    data: { fin, terminado_en: now },
  });
  if (!why) return;
  await tellUser(tx, deps, told, booking.conductor_id, { tipo: "reserva", titulo: `Reserva ${booking.id}: ya no es tuya`, mensaje: why });
}

const changeSchema = z.object({ reserva_id: positiveId() });

/**
 * The passenger moves their reservation to another time or other places (each change re-quoted,
 * without quote); a driver committed to it is released and told.
 */
export async function changeReservation(deps: Deps, actor: Actor, input: BookingRequest & { reserva_id?: unknown }) {
  const { reserva_id, fecha_programada, ...places } = input;
  const booking = await getReservation(deps, parseInput(changeSchema, { reserva_id }).reserva_id);
  authorize(actor, RESERVATION_RULES.change, booking);
  assertChangeable(deps, booking);
  const keep = <T>(value: T | undefined | null, kept: T) => (value === undefined || value === null ? kept : value);
  const named = await withSavedPlaces(deps, booking.usuario_id, places);
  const request = parseRequest({
    tipo_servicio: keep(named.tipo_servicio, booking.tipo_servicio),
    tipo_vehiculo: named.tipo_vehiculo,
    metodo_pago: keep(named.metodo_pago, booking.metodo_pago),
    origen: keep(named.origen, { direccion: booking.origen_direccion, latitud: booking.origen_latitud, longitud: booking.origen_longitud }),
    destino: keep(named.destino, {
      direccion: booking.destino_direccion,
      latitud: booking.destino_latitud,
      longitud: booking.destino_longitud,
    }),
    paradas: keep(named.paradas, JSON.parse(booking.paradas)),
    cotizacion_id: named.cotizacion_id,
  });
  assertAccepted(deps.payments, request.metodo_pago);
  const pickupAt = parsePickupTime(deps, fecha_programada) ?? booking.fecha_programada;
  const { quote, data } = await pricedBooking(deps, booking.usuario_id, request, pickupAt);
  const told = nothingTold();
  const changed = await deps.db.$transaction(async (tx) => {
    if (quote) await assertUnused(tx, quote);
    // Only while still booked: a dispatch or a cancellation meanwhile wins.
    const { count } = await tx.reservation.updateMany({
      where: { id: booking.id, estado: "programada", actualizada_en: booking.actualizada_en },
      data: { ...data, conductor_id: null, comprometida_en: null, aviso_conductor_en: null, recordatorio_15m_en: null },
    });
    if (count === 0) throw new ConflictError(`La reserva ${booking.id} cambió mientras tanto; vuelve a consultarla`);
    await releaseDriver(tx, deps, told, booking, "liberado", `El pasajero cambió la reserva del ${pickupWords(booking.fecha_programada)}.`);
    return tx.reservation.findUniqueOrThrow({ where: { id: booking.id } });
  });
  deliver(deps, told);
  return changed;
}

/**
 * The passenger, or an administrator saying why (audited), cancels a reservation not yet
 * dispatched; once dispatched, its trip is cancelled as any trip is. Nothing is charged.
 */
export async function cancelReservation(deps: Deps, actor: Actor, input: Raw<typeof cancelSchema>): Promise<Reservation> {
  const { reserva_id, motivo } = parseInput(cancelSchema, input);
  const booking = await getReservation(deps, reserva_id);
  authorize(actor, RESERVATION_RULES.cancel, booking);
  const byAdmin = isAdmin(actor) && member(actor).id !== booking.usuario_id;
  if (byAdmin && !motivo) throw new ValidationError("es obligatorio: di por qué cancelas la reserva", "motivo");
  if (booking.estado !== "programada") {
    throw new InvalidStateError(`La reserva ${booking.id} está ${booking.estado}; ya no se puede cambiar ni cancelar`);
  }
  const now = deps.clock.now();
  const told = nothingTold();
  const cancelled = await deps.db.$transaction(async (tx) => {
    const { count } = await tx.reservation.updateMany({
      where: { id: booking.id, estado: "programada" },
      data: {
        estado: "cancelada",
        motivo_cancelacion: motivo ?? null,
        cancelada_por: byAdmin ? "admin" : "pasajero",
        fecha_cancelacion: now,
      },
    });
    if (count === 0) throw new InvalidStateError(`La reserva ${booking.id} ya no está programada`);
    const when = pickupWords(booking.fecha_programada);
    await releaseDriver(tx, deps, told, booking, "liberado", `Se canceló la reserva del ${when}.`);
    if (byAdmin) {
      await audit(tx, deps, actor, { accion: "cancelar_reserva", objetivo_tipo: "reserva", objetivo_id: booking.id, detalles: { motivo } });
      await tellUser(tx, deps, told, booking.usuario_id, {
        tipo: "reserva",
        titulo: "Tu viaje reservado fue cancelado",
        mensaje: `Cancelamos tu viaje reservado del ${when}: ${motivo}. No se te cobra nada.`,
      });
    }
    return tx.reservation.findUniqueOrThrow({ where: { id: booking.id } });
  });
  deliver(deps, told);
  return cancelled;
}
