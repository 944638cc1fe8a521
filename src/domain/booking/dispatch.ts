import type { Reservation, Trip } from "../../db/models.js";
import type { Deps } from "../deps.js";
import { greatCircleKm } from "../geo.js";
import { MATCH_RADIUS_KM } from "../matching/eligibility.js";
import { announceWave, nextWaveDue } from "../matching/dispatch.js";
import { commissionRatesFor } from "../money/fare-split.js";
import { deliver, nothingTold, tellUser, type Told } from "../notifications/tell.js";
import type { PaymentMethod } from "../payment-methods.js";
import { rateFor } from "../pricing/rates.js";
import { VEHICLE_FOR_SERVICE, type ServiceType } from "../service-types.js";
import { announceNewTrip, announceTrip } from "../trips/announce.js";
import { saveStops } from "../trips/stops.js";
import { HOUR_BEFORE_MS, pickupWords, releaseDriver } from "./reservations.js";

/** Reservations one pass handles at most of each kind; the rest wait for the next pass, which follows at once. */
const BATCH = 200;

/** The second reminder goes this long before the pickup. */
const QUARTER_BEFORE_MS = 15 * 60_000;

/** Whether the driver committed to a reservation is online, free and near its pickup: then they are offered it first. */
function committedDriverReady(deps: Deps, booking: Reservation, now: Date): boolean {
  if (booking.conductor_id === null) return false;
  const presence = deps.matching.presence.get(booking.conductor_id);
  const position = presence?.posicion;
  return (
    presence?.disponible === true &&
    presence.tipo_vehiculo === VEHICLE_FOR_SERVICE[booking.tipo_servicio as ServiceType] &&
    presence.apto_hasta > now &&
    position != null &&
    now.getTime() - position.at.getTime() <= deps.matching.positionMaxAgeMs &&
    greatCircleKm(position, { latitud: booking.origen_latitud, longitud: booking.origen_longitud }) <= MATCH_RADIUS_KM
  );
}

/**
 * Turns one due reservation into a pending trip, exactly once whichever process gets there first:
 * the reservation's state changes in the same transaction as the trip is made, and only if it was
 * still booked. The committed driver, ready near the pickup, gets the first wave alone; one who is
 * not loses the reservation to the usual waves, and it counts against them.
 */
async function dispatchOne(deps: Deps, booking: Reservation): Promise<{ trip: Trip; first: number[] } | null> {
  const now = deps.clock.now();
  const rate = await rateFor(deps.reads, VEHICLE_FOR_SERVICE[booking.tipo_servicio as ServiceType]);
  const ready = committedDriverReady(deps, booking, now);
  const told = nothingTold();
  const made = await deps.db.$transaction(async (tx) => {
    const { count } = await tx.reservation.updateMany({ where: { id: booking.id, estado: "programada" }, data: { estado: "despachada" } });
    if (count === 0) return null;
    const trip = await tx.trip.create({
      data: {
        usuario_id: booking.usuario_id,
        tipo_servicio: booking.tipo_servicio,
        origen_direccion: booking.origen_direccion,
        origen_latitud: booking.origen_latitud,
        origen_longitud: booking.origen_longitud,
        origen_referencia: booking.origen_referencia,
        destino_direccion: booking.destino_direccion,
        destino_latitud: booking.destino_latitud,
        destino_longitud: booking.destino_longitud,
        destino_referencia: booking.destino_referencia,
        precio_estimado: booking.precio_estimado,
        // The price booked is the most the ride is charged, as a quote's is.
        precio_cotizado: booking.precio_estimado,
        metodo_pago: booking.metodo_pago,
        ...commissionRatesFor(rate, booking.metodo_pago as PaymentMethod),
        distancia_km: booking.distancia_km,
        duracion_estimada_minutos: booking.duracion_estimada_minutos,
        fecha_solicitud: now,
        // The committed driver has one wave's time to take it before the others hear of it.
        proxima_ola: ready ? nextWaveDue(deps, now) : now,
      },
    });
    await tx.reservation.update({ where: { id: booking.id }, data: { viaje_id: trip.id } });
    await saveStops(tx, trip.id, JSON.parse(booking.paradas));
    if (ready) {
      await tx.tripOffer.create({ data: { viaje_id: trip.id, conductor_id: booking.conductor_id!, mostrada_en: now } });
      await releaseDriver(tx, deps, told, booking, "cumplido");
    } else if (booking.conductor_id !== null) {
      await releaseDriver(
        tx,
        deps,
        told,
        booking,
        "perdido",
        `No estabas en línea cerca del punto de recogida cuando llegó la hora: el viaje del ${pickupWords(booking.fecha_programada)} se ofreció a otros conductores.`,
      );
    }
    return trip;
  });
  deliver(deps, told);
  return made && { trip: made, first: ready ? [booking.conductor_id!] : [] };
}

/** Dispatches the reservations whose pickup is BOOKING_DISPATCH_LEAD_MIN away or less; true when more may be due. */
async function dispatchDueBookings(deps: Deps): Promise<boolean> {
  const now = deps.clock.now();
  const due = await deps.db.reservation.findMany({
    where: { estado: "programada", fecha_programada: { lte: new Date(now.getTime() + deps.booking.dispatchLeadMs) } },
    orderBy: { fecha_programada: "asc" },
    take: BATCH,
  });
  for (const booking of due) {
    const made = await dispatchOne(deps, booking);
    if (!made) continue;
    announceWave(deps, made.trip, made.first);
    if (made.first.length === 0) announceNewTrip(deps, made.trip);
  }
  return due.length === BATCH;
}

/**
 * Ends the dispatched reservations nobody took by their pickup time plus BOOKING_GRACE_MIN: the
 * trip is cancelled (never charged) and the passenger told, once, whichever process gets there first.
 */
async function expireUntakenBookings(deps: Deps): Promise<boolean> {
  const now = deps.clock.now();
  const late = await deps.db.reservation.findMany({
    where: {
      estado: "despachada",
      fecha_programada: { lte: new Date(now.getTime() - deps.booking.graceMs) },
      viaje: { estado: "pendiente" },
    },
    take: BATCH,
  });
  for (const booking of late) {
    const told = nothingTold();
    const cancelled = await deps.db.$transaction(async (tx) => {
      const { count } = await tx.trip.updateMany({
        where: { id: booking.viaje_id!, estado: "pendiente" },
        data: {
          estado: "cancelado",
          fecha_cancelacion: now,
          motivo_cancelacion: "Ningún conductor tomó el viaje reservado a tiempo",
          proxima_ola: null,
        },
      });
      if (count === 0) return null;
      await tx.reservation.update({ where: { id: booking.id }, data: { estado: "vencida" } });
      await tellUser(tx, deps, told, booking.usuario_id, {
        tipo: "reserva",
        titulo: "Nadie tomó tu viaje reservado",
        mensaje: `Lo sentimos: ningún conductor tomó tu viaje del ${pickupWords(booking.fecha_programada)}. No se te cobra nada; puedes pedir uno ahora.`,
      });
      return tx.trip.findUniqueOrThrow({ where: { id: booking.viaje_id! } });
    });
    deliver(deps, told);
    if (cancelled) announceTrip(deps, cancelled);
  }
  return late.length === BATCH;
}

/**
 * Reminds the passenger (and the driver committed) an hour and a quarter of an hour before each
 * pickup, on their feed and by mail: each reminder once, marked in the transaction that stores it.
 */
async function sendBookingReminders(deps: Deps): Promise<boolean> {
  const now = deps.clock.now();
  let more = false;
  for (const [field, ahead, words] of [
    ["recordatorio_1h_en", HOUR_BEFORE_MS, "en una hora"],
    ["recordatorio_15m_en", QUARTER_BEFORE_MS, "en 15 minutos"],
  ] as const) {
    const due = await deps.db.reservation.findMany({
      where: {
        estado: { in: ["programada", "despachada"] },
        [field]: null,
        fecha_programada: { lte: new Date(now.getTime() + ahead), gt: now },
      },
      take: BATCH,
    });
    more ||= due.length === BATCH;
    for (const booking of due) {
      const told = nothingTold();
      await deps.db.$transaction(async (tx) => {
        const { count } = await tx.reservation.updateMany({ where: { id: booking.id, [field]: null }, data: { [field]: now } });
        if (count === 0) return;
        await remind(tx, deps, told, booking.usuario_id, booking, `Tu viaje reservado es ${words}`);
        if (booking.conductor_id !== null && booking.estado === "programada") {
          await remind(
            tx,
            deps,
            told,
            booking.conductor_id,
            booking,
            `La reserva que tomaste es ${words}: conéctate cerca del punto de recogida`,
          );
        }
      });
      deliver(deps, told);
    }
  }
  return more;
}

function remind(tx: Parameters<typeof tellUser>[0], deps: Deps, told: Told, usuarioId: number, booking: Reservation, titulo: string) {
  return tellUser(tx, deps, told, usuarioId, {
    tipo: "reserva",
    titulo,
    mensaje: `Recogida el ${pickupWords(booking.fecha_programada)} en ${booking.origen_direccion}, hacia ${booking.destino_direccion}.`,
  });
}

/** One pass of everything reservations need done on time; true when more may be due than a pass takes. */
export async function bookingPass(deps: Deps): Promise<boolean> {
  const reminded = await sendBookingReminders(deps);
  const dispatched = await dispatchDueBookings(deps);
  const expired = await expireUntakenBookings(deps);
  return reminded || dispatched || expired;
}
