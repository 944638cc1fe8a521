import { z } from "zod";
import type { Deps } from "../deps.js";
import { ValidationError } from "../errors.js";
import { greatCircleKm, type Point } from "../geo.js";
import { placeSchema, type PlaceInput } from "../maps/place.js";
import { estimateRoute } from "../maps/routes.js";
import { eligibleFor } from "../matching/eligibility.js";
import { countPendingTripsNear } from "../matching/requests.js";
import { computeFare, demandCountLimit, demandMultiplier } from "../pricing/fare.js";
import { rateFor } from "../pricing/rates.js";
import { PAYMENT_METHODS } from "../payment-methods.js";
import { SERVICE_TYPES, VEHICLE_FOR_SERVICE, VEHICLE_TYPES, serviceForVehicle, type ServiceType } from "../service-types.js";
import { round } from "../numbers.js";
import { oneOf, optional, parseInput, text, type Raw } from "../validation.js";

/* What a trip request, and a quote for one, is made of: the service, how it is paid, two places. */

/** Stops a trip makes on the way, at most. */
export const MAX_STOPS = 3;

const tripSchema = z.object({
  tipo_servicio: optional(oneOf(SERVICE_TYPES)),
  metodo_pago: optional(oneOf(PAYMENT_METHODS)),
  tipo_vehiculo: optional(oneOf(VEHICLE_TYPES)),
  origen: placeSchema(),
  destino: placeSchema(),
  paradas: optional(
    z.array(placeSchema(), { error: "debe ser una lista de lugares" }).max(MAX_STOPS, `admite como mucho ${MAX_STOPS} paradas`),
  ),
  cotizacion_id: optional(text(100)),
});

export type TripRequest = Raw<typeof tripSchema>;

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

/** A request as sent, checked: its service type settled and the payment method it will use (cash unless said). */
export function parseRequest(input: TripRequest) {
  const request = parseInput(tripSchema, input);
  const serviceType = serviceTypeOf(request);
  if (greatCircleKm(request.origen, request.destino) < MIN_TRIP_KM) {
    throw new ValidationError("debe estar a más de 100 m del origen", "destino");
  }
  // The app sends no method: the driver is paid in cash.
  return { ...request, serviceType, metodo_pago: request.metodo_pago ?? "efectivo", paradas: request.paradas ?? [] };
}

export type ParsedRequest = ReturnType<typeof parseRequest>;

/** Free drivers within reach of the pickup, from the geo index. */
export const availableDrivers = (deps: Deps, serviceType: ServiceType, origin: Point) =>
  deps.matching.presence.index.count(origin, eligibleFor(deps, VEHICLE_FOR_SERVICE[serviceType]));

/**
 * Route and price of a trip: now, with the demand around the pickup (`available` drivers against the
 * pending requests there), or at a given time, with that time's rules and the demand multiplier
 * given (none for a booked pickup: nobody knows the demand of next Friday).
 */
export async function priceTrip(
  deps: Deps,
  request: Pick<ParsedRequest, "serviceType" | "origen" | "destino" | "paradas">,
  when: { available: number } | { at: Date; demand?: number },
) {
  const now = "available" in when;
  const at = now ? deps.clock.now() : when.at;
  const [route, pending, rate] = await Promise.all([
    routeThrough(deps, [request.origen, ...request.paradas, request.destino], at),
    now ? countPendingTripsNear(deps.db, request.origen, request.serviceType, demandCountLimit(when.available)) : 0,
    rateFor(deps.reads, VEHICLE_FOR_SERVICE[request.serviceType]),
  ]);
  // The request being priced is one more pending request.
  const demand = now ? demandMultiplier(pending + 1, when.available) : (when.demand ?? 1);
  const fare = computeFare(rate, { distanceKm: route.distancia_km, minutes: route.duracion_minutos, at, demand });
  return { route, fare, rate };
}

/** The route from the first point to the last through the others, in order: its legs added up. */
async function routeThrough(deps: Deps, points: Point[], at: Date) {
  const legs = await Promise.all(points.slice(1).map((to, i) => estimateRoute(deps, points[i]!, to, at)));
  return {
    distancia_km: round(
      legs.reduce((sum, leg) => sum + leg.distancia_km, 0),
      2,
    ),
    duracion_minutos: legs.reduce((sum, leg) => sum + leg.duracion_minutos, 0),
    puntos: legs.flatMap((leg) => leg.puntos),
  };
}

/** A place sent without an address is described by the nearest town. */
export async function withAddress(deps: Deps, point: PlaceInput): Promise<PlaceInput & { direccion: string }> {
  if (point.direccion) return { ...point, direccion: point.direccion };
  const found = await deps.maps.geocoder.reverse(point);
  return { ...point, direccion: found?.direccion ?? `${point.latitud}, ${point.longitud}` };
}
