import { randomBytes } from "node:crypto";
import type { Db, Tx } from "../../db/client.js";
import type { Quote } from "../../db/models.js";
import type { Deps } from "../deps.js";
import { ValidationError } from "../errors.js";
import { greatCircleKm, type Point } from "../geo.js";
import type { Fare } from "../pricing/fare.js";
import { localClock } from "../time.js";
import type { ParsedRequest } from "./request.js";

/** How far a trip's place may be from the quoted one and still be it: a phone's position drifts between preview and request. */
const SAME_PLACE_KM = 0.1;

/** Quotes a passenger keeps at once; asking for another past it drops their oldest. */
const QUOTES_KEPT = 20;

/** 128 random bits: a quote id cannot be guessed, and is only ever looked up with its passenger. */
const newQuoteId = () => `cot_${randomBytes(16).toString("base64url")}`;

/**
 * Keeps the quote a passenger was given, so that a trip asked for with it is charged at most its
 * price; their expired quotes, and their oldest past QUOTES_KEPT, are dropped on the way.
 */
export async function recordQuote(
  deps: Deps,
  usuarioId: number,
  request: ParsedRequest,
  priced: { fare: Fare; route: { distancia_km: number; duracion_minutos: number } },
  pickupAt: Date | null,
): Promise<Quote> {
  const now = deps.clock.now();
  const { fare, route } = priced;
  await deps.db.quote.deleteMany({ where: { usuario_id: usuarioId, vence_en: { lte: now } } });
  const older = await deps.db.quote.findMany({
    where: { usuario_id: usuarioId },
    orderBy: { creada_en: "desc" },
    skip: QUOTES_KEPT - 1,
    select: { id: true },
  });
  if (older.length > 0) await deps.db.quote.deleteMany({ where: { id: { in: older.map(({ id }) => id) } } });
  return deps.db.quote.create({
    data: {
      id: newQuoteId(),
      usuario_id: usuarioId,
      tipo_servicio: request.serviceType,
      metodo_pago: request.metodo_pago,
      origen_latitud: request.origen.latitud,
      origen_longitud: request.origen.longitud,
      destino_latitud: request.destino.latitud,
      destino_longitud: request.destino.longitud,
      paradas: JSON.stringify(request.paradas.map(({ latitud, longitud }) => ({ latitud, longitud }))),
      fecha_programada: pickupAt,
      precio_estimado: fare.precio_estimado,
      tarifa_base: fare.tarifa_base,
      por_distancia: fare.por_distancia,
      por_tiempo: fare.por_tiempo,
      recargo: fare.recargo,
      por_recargo: fare.por_recargo,
      multiplicador_demanda: fare.multiplicador_demanda,
      distancia_km: route.distancia_km,
      duracion_estimada_minutos: route.duracion_minutos,
      creada_en: now,
      vence_en: new Date(now.getTime() + deps.booking.quoteTtlMs),
    },
  });
}

const refused = (reason: string) => new ValidationError(reason, "cotizacion_id");

/**
 * The caller's quote named by a request, checked against it: a 400 naming cotizacion_id when it is
 * not theirs (or does not exist: the two are told apart for nobody), has expired, or was for another
 * service, payment method, place, stops or pickup time. Whether it was used already is `assertUnused`'s.
 */
export async function quoteFor(
  deps: Deps,
  usuarioId: number,
  cotizacionId: string,
  request: ParsedRequest,
  pickupAt: Date | null,
): Promise<Quote> {
  const quote = await deps.db.quote.findFirst({ where: { id: cotizacionId, usuario_id: usuarioId } });
  if (!quote) throw refused("no es una cotización tuya vigente; pide otra cotización o pide el viaje sin ella");
  if (quote.vence_en <= deps.clock.now()) {
    throw refused(`venció a las ${localClock(quote.vence_en)}; pide otra cotización o pide el viaje sin ella`);
  }
  if (quote.tipo_servicio !== request.serviceType) throw refused(`es para el servicio '${quote.tipo_servicio}'`);
  if (quote.metodo_pago !== request.metodo_pago) throw refused(`es para pagar con '${quote.metodo_pago}'`);
  if (greatCircleKm(request.origen, { latitud: quote.origen_latitud, longitud: quote.origen_longitud }) > SAME_PLACE_KM) {
    throw refused("es para otro punto de recogida");
  }
  if (greatCircleKm(request.destino, { latitud: quote.destino_latitud, longitud: quote.destino_longitud }) > SAME_PLACE_KM) {
    throw refused("es para otro destino");
  }
  const stops = JSON.parse(quote.paradas) as Point[];
  const sameStops =
    stops.length === request.paradas.length && stops.every((stop, i) => greatCircleKm(stop, request.paradas[i]!) <= SAME_PLACE_KM);
  if (!sameStops) throw refused(stops.length === 0 ? "es para un viaje sin paradas" : "es para otras paradas");
  if (quote.fecha_programada?.getTime() !== pickupAt?.getTime()) {
    throw refused(quote.fecha_programada ? "es para un viaje programado a otra hora" : "es para un viaje ahora, no programado");
  }
  return quote;
}

/** A quote buys one trip or booking: read where the passenger's requests are one at a time, so two cannot both use it. */
export async function assertUnused(db: Db | Tx, quote: Quote): Promise<void> {
  const trip = await db.trip.findUnique({ where: { cotizacion_id: quote.id }, select: { id: true } });
  const booking = await db.reservation.findUnique({ where: { cotizacion_id: quote.id }, select: { id: true } });
  const used = trip ? `el viaje ${trip.id}` : booking ? `la reserva ${booking.id}` : null;
  if (used) throw refused(`ya se usó para ${used}; pide otra cotización o pide el viaje sin ella`);
}

/** What a trip is charged: what its driver asks, never more than the most its quote allows (none without one). */
export const quotedCharge = (asked: number, most: number | null) => (most === null ? asked : Math.min(asked, most));
