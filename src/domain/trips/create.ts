import { lockUser } from "../../db/locks.js";
import { insertOffers } from "../../db/batches.js";
import { insertRow } from "../../db/insert-row.js";
import { tripOfPassengerIn } from "../../db/trip-rows.js";
import { accountBlockReason } from "../accounts/standing.js";
import { getUser } from "../accounts/users.js";
import { isMember, member, type Actor } from "../actor.js";
import { parsePickupTime } from "../booking/pickup-time.js";
import { assertUnused, quoteFor, recordQuote } from "../booking/quotes.js";
import { availableDrivers, parseRequest, priceTrip, withAddress, type TripRequest } from "../booking/request.js";
import type { Deps } from "../deps.js";
import { AccountDisabledError, ConflictError, NoDriversAvailableError, ValidationError } from "../errors.js";
import { announceWave, nextWave, nextWaveDue } from "../matching/dispatch.js";
import { commissionRatesFor } from "../money/fare-split.js";
import { assertAccepted } from "../payment-methods.js";
import { withSavedPlaces, type NamingPlaces } from "../places/saved-places.js";
import { rateFor } from "../pricing/rates.js";
import { VEHICLE_FOR_SERVICE } from "../service-types.js";
import { ACTIVE_STATES } from "../trip-states.js";
import { TRIP_RULES } from "./access.js";
import { announceNewTrip } from "./announce.js";
import { saveStops } from "./stops.js";

/**
 * What a trip would cost, before asking for it: now, or at a booked pickup time (`fecha_programada`).
 * A signed-in caller is given a quote (`cotizacion_id`) that holds the price for QUOTE_TTL_S; its
 * places may be saved places. Anyone else gets the price alone.
 */
export async function fareEstimate(deps: Deps, actor: Actor, input: TripRequest & NamingPlaces, fecha_programada?: unknown) {
  const usuarioId = isMember(actor) ? actor.id : null;
  if (input.cotizacion_id !== undefined && input.cotizacion_id !== null) {
    throw new ValidationError("no se envía al cotizar: es lo que la cotización responde", "cotizacion_id");
  }
  const request = parseRequest(usuarioId === null ? input : await withSavedPlaces(deps, usuarioId, input));
  const pickupAt = parsePickupTime(deps, fecha_programada) ?? null;
  const available = availableDrivers(deps, request.serviceType, request.origen);
  const priced = await priceTrip(deps, request, pickupAt ? { at: pickupAt } : { available });
  const quote = usuarioId === null ? null : await recordQuote(deps, usuarioId, request, priced, pickupAt);
  return {
    ...priced.fare,
    tipo_servicio: request.serviceType,
    distancia_km: priced.route.distancia_km,
    duracion_estimada_minutos: priced.route.duracion_minutos,
    puntos: priced.route.puntos,
    conductores_disponibles: available,
    cotizacion_id: quote?.id ?? null,
    vence_en: quote?.vence_en ?? null,
    fecha_programada: pickupAt,
  };
}

/**
 * A passenger asks for a trip, its places sent or named by their saved places, priced now or by the
 * quote it names (see fareEstimate). It is created only
 * when a driver who could take it is within reach; the nearest of them are offered it at once, the
 * next ones in waves, due from the database to whichever process sends them first (see dispatch).
 * The write transaction holds only the statements that must be atomic.
 */
export async function createTrip(deps: Deps, actor: Actor, input: TripRequest & NamingPlaces) {
  const passengerId = member(actor, TRIP_RULES.request).id;
  const request = parseRequest(await withSavedPlaces(deps, passengerId, input));
  assertAccepted(deps.payments, request.metodo_pago);
  const passenger = await getUser(deps.reads, passengerId);
  const blocked = accountBlockReason(passenger);
  if (blocked) throw new AccountDisabledError(blocked);
  const quote = request.cotizacion_id ? await quoteFor(deps, passengerId, request.cotizacion_id, request, null) : null;

  const [origen, destino, paradas] = await Promise.all([
    withAddress(deps, request.origen),
    withAddress(deps, request.destino),
    Promise.all(request.paradas.map((stop) => withAddress(deps, stop))),
  ]);
  const available = availableDrivers(deps, request.serviceType, origen);
  if (available === 0) {
    throw new NoDriversAvailableError(
      "No hay conductores disponibles cerca del punto de origen en este momento; intenta de nuevo en unos minutos",
    );
  }
  // A quoted trip keeps its quote's price and route; the rates give the commissions in force now.
  const { route, fare, rate } = quote
    ? {
        route: { distancia_km: quote.distancia_km, duracion_minutos: quote.duracion_estimada_minutos },
        fare: quote,
        rate: await rateFor(deps.reads, VEHICLE_FOR_SERVICE[request.serviceType]),
      }
    : await priceTrip(deps, { ...request, origen, destino, paradas }, { available });

  const now = deps.clock.now();
  const wave = nextWave(deps, origen, request.serviceType);
  const tripId = await deps.db.$transaction(async (tx) => {
    // One request at a time per passenger, so two taps cannot open two trips.
    await lockUser(tx, deps.provider, passengerId);
    const active = await tripOfPassengerIn(tx, passengerId, ACTIVE_STATES);
    if (active) throw new ConflictError(`Ya tienes un viaje activo (id ${active.id}, ${active.estado})`);
    if (quote) await assertUnused(tx, quote);
    const id = await insertRow(tx, deps.provider, "Trip", {
      usuario_id: passengerId,
      tipo_servicio: request.serviceType,
      origen_direccion: origen.direccion,
      origen_latitud: origen.latitud,
      origen_longitud: origen.longitud,
      origen_referencia: origen.referencia,
      destino_direccion: destino.direccion,
      destino_latitud: destino.latitud,
      destino_longitud: destino.longitud,
      destino_referencia: destino.referencia,
      precio_estimado: fare.precio_estimado,
      multiplicador_demanda: fare.multiplicador_demanda,
      metodo_pago: request.metodo_pago,
      ...commissionRatesFor(rate, request.metodo_pago),
      distancia_km: route.distancia_km,
      duracion_estimada_minutos: route.duracion_minutos,
      fecha_solicitud: now,
      proxima_ola: nextWaveDue(deps, now),
      cotizacion_id: quote?.id ?? null,
      precio_cotizado: quote?.precio_estimado ?? null,
      actualizado_en: now,
    });
    await saveStops(tx, id, paradas);
    await insertOffers(
      tx,
      deps.provider,
      wave.map((conductor_id) => ({ viaje_id: id, conductor_id })),
      now,
    );
    return id;
  });
  const trip = (await deps.reads.trip.findUnique({ where: { id: tripId } }))!;
  announceWave(deps, trip, wave);
  announceNewTrip(deps, trip);
  return trip;
}
