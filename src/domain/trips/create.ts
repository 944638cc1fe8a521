import { z } from "zod";
import { lockUser } from "../../db/locks.js";
import { accountBlockReason } from "../accounts/standing.js";
import { getUser } from "../accounts/users.js";
import { member, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { AccountDisabledError, ConflictError, NoDriversAvailableError, ValidationError } from "../errors.js";
import { greatCircleKm, type Point } from "../geo.js";
import { placeSchema, type PlaceInput } from "../maps/place.js";
import { estimateRoute } from "../maps/routes.js";
import { insertOffers } from "../../db/batches.js";
import { insertRow } from "../../db/insert-row.js";
import { tripOfPassengerIn } from "../../db/trip-rows.js";
import { eligibleFor } from "../matching/eligibility.js";
import { announceWave, nextWave, nextWaveDue } from "../matching/dispatch.js";
import { announceNewTrip } from "./announce.js";
import { countPendingTripsNear } from "../matching/requests.js";
import { computeFare, demandCountLimit, demandMultiplier } from "../pricing/fare.js";
import { rateFor } from "../pricing/rates.js";
import { commissionRatesFor } from "../money/fare-split.js";
import { assertAccepted, PAYMENT_METHODS } from "../payment-methods.js";
import { oneOf, optional, parseInput, type Raw } from "../validation.js";
import { withSavedPlaces, type NamingPlaces } from "../places/saved-places.js";
import { SERVICE_TYPES, VEHICLE_FOR_SERVICE, VEHICLE_TYPES, serviceForVehicle, type ServiceType } from "../service-types.js";
import { TRIP_RULES } from "./access.js";
import { ACTIVE_STATES } from "../trip-states.js";

const tripSchema = z.object({
  tipo_servicio: optional(oneOf(SERVICE_TYPES)),
  metodo_pago: optional(oneOf(PAYMENT_METHODS)),
  tipo_vehiculo: optional(oneOf(VEHICLE_TYPES)),
  origen: placeSchema(),
  destino: placeSchema(),
});

export type TripRequest = Raw<typeof tripSchema>;
type Place = PlaceInput;

/** Pickup and drop-off closer than this are the same place. */
const MIN_TRIP_KM = 0.1;

/** The service asked for: named directly, or through the vehicle type of the older request shape. */
function serviceTypeOf(request: z.output<typeof tripSchema>): ServiceType {
  const { tipo_servicio, tipo_vehiculo } = request;
  if (!tipo_servicio && !tipo_vehiculo) throw new ValidationError("es obligatorio", "tipo_servicio");
  if (tipo_servicio && tipo_vehiculo && VEHICLE_FOR_SERVICE[tipo_servicio] !== tipo_vehiculo) {
    throw new ValidationError(
      `no corresponde al servicio '${tipo_servicio}', que usa vehículos '${VEHICLE_FOR_SERVICE[tipo_servicio]}'`,
      "tipo_vehiculo",
    );
  }
  return tipo_servicio ?? serviceForVehicle(tipo_vehiculo!);
}

function parseRequest(input: TripRequest) {
  const request = parseInput(tripSchema, input);
  const serviceType = serviceTypeOf(request);
  if (greatCircleKm(request.origen, request.destino) < MIN_TRIP_KM) {
    throw new ValidationError("debe estar a más de 100 m del origen", "destino");
  }
  return { ...request, serviceType };
}

/**
 * Route, available drivers and price for a trip that starts now; what a quote and a request
 * share. The drivers come from the geo index: how many are within reach, and the nearest wave.
 */
async function quote(deps: Deps, serviceType: ServiceType, origin: Point, destination: Point) {
  const vehicle = VEHICLE_FOR_SERVICE[serviceType];
  const available = deps.matching.presence.index.count(origin, eligibleFor(deps, vehicle));
  const [route, pending, rate] = await Promise.all([
    estimateRoute(deps, origin, destination),
    countPendingTripsNear(deps.db, origin, serviceType, demandCountLimit(available)),
    rateFor(deps.reads, vehicle),
  ]);
  // The request being priced is one more pending request.
  const demand = demandMultiplier(pending + 1, available);
  const fare = computeFare(rate, { distanceKm: route.distancia_km, minutes: route.duracion_minutos, at: deps.clock.now(), demand });
  return { route, available, fare, rate };
}

/** What a trip would cost now, before asking for it. */
export async function fareEstimate(deps: Deps, input: TripRequest) {
  const request = parseRequest(input);
  const { route, available, fare } = await quote(deps, request.serviceType, request.origen, request.destino);
  return {
    ...fare,
    tipo_servicio: request.serviceType,
    distancia_km: route.distancia_km,
    duracion_estimada_minutos: route.duracion_minutos,
    conductores_disponibles: available,
  };
}

/** A place sent without an address is described by the nearest town. */
async function withAddress(deps: Deps, point: Place): Promise<Place & { direccion: string }> {
  if (point.direccion) return { ...point, direccion: point.direccion };
  const found = await deps.maps.geocoder.reverse(point);
  return { ...point, direccion: found?.direccion ?? `${point.latitud}, ${point.longitud}` };
}

/**
 * A passenger asks for a trip, its places sent or named by their saved places. It is created only
 * when a driver who could take it is within reach; the nearest of them are offered it at once, the
 * next ones in waves, due from the database to whichever process sends them first (see dispatch).
 * The write transaction holds only the statements that must be atomic.
 */
export async function createTrip(deps: Deps, actor: Actor, input: TripRequest & NamingPlaces) {
  const passengerId = member(actor, TRIP_RULES.request).id;
  const request = parseRequest(await withSavedPlaces(deps, passengerId, input));
  // The app sends no method: the driver is paid in cash.
  const metodo_pago = request.metodo_pago ?? "efectivo";
  assertAccepted(deps.payments, metodo_pago);
  const passenger = await getUser(deps.reads, passengerId);
  const blocked = accountBlockReason(passenger);
  if (blocked) throw new AccountDisabledError(blocked);

  const [origen, destino] = await Promise.all([withAddress(deps, request.origen), withAddress(deps, request.destino)]);
  const { route, available, fare, rate } = await quote(deps, request.serviceType, origen, destino);
  if (available === 0) {
    throw new NoDriversAvailableError(
      "No hay conductores disponibles cerca del punto de origen en este momento; intenta de nuevo en unos minutos",
    );
  }

  const now = deps.clock.now();
  const wave = nextWave(deps, origen, request.serviceType);
  const tripId = await deps.db.$transaction(async (tx) => {
    // One request at a time per passenger, so two taps cannot open two trips.
    await lockUser(tx, deps.provider, passengerId);
    const active = await tripOfPassengerIn(tx, passengerId, ACTIVE_STATES);
    if (active) throw new ConflictError(`Ya tienes un viaje activo (id ${active.id}, ${active.estado})`);
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
      metodo_pago,
      ...commissionRatesFor(rate, metodo_pago),
      distancia_km: route.distancia_km,
      duracion_estimada_minutos: route.duracion_minutos,
      fecha_solicitud: now,
      proxima_ola: nextWaveDue(deps, now),
      actualizado_en: now,
    });
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
