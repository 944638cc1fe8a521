import { z } from "zod";
import type { Tx } from "../../db/client.js";
import type { Trip } from "../../db/models.js";
import { authorize, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { InvalidStateError, ValidationError } from "../errors.js";
import type { PlaceInput } from "../maps/place.js";
import { rateFor } from "../pricing/rates.js";
import { VEHICLE_FOR_SERVICE, type ServiceType } from "../service-types.js";
import { parseInput, positiveId, type Raw } from "../validation.js";
import { TRIP_RULES } from "./access.js";
import { announceTrip } from "./announce.js";
import { getTrip } from "./queries.js";

/* The stops a trip makes on the way: stored in order with the trip, and the driver's arrival at and departure from each. */

type Stop = PlaceInput & { direccion: string };

/** Stores a trip's stops in the order asked, numbered on from `after` (0 for a new trip), in the transaction that makes or changes it. */
export async function saveStops(tx: Tx, tripId: number, stops: Stop[], after = 0): Promise<void> {
  if (stops.length === 0) return;
  await tx.tripStop.createMany({
    data: stops.map((stop, i) => ({
      viaje_id: tripId,
      orden: after + i + 1,
      direccion: stop.direccion,
      latitud: stop.latitud,
      longitud: stop.longitud,
      referencia: stop.referencia ?? null,
    })),
  });
}

/** A trip's stops, in order. */
const stopsOf = (deps: Pick<Deps, "db">, tripId: number) =>
  deps.db.tripStop.findMany({ where: { viaje_id: tripId }, orderBy: { orden: "asc" } });

/** Whole minutes spent at the stops, from each arrival to its departure (or to `until` while still there). */
function minutesAtStops(stops: Array<{ llegada_en: Date | null; salida_en: Date | null }>, until: Date): number {
  const ms = stops.reduce(
    (sum, stop) => (stop.llegada_en ? sum + ((stop.salida_en ?? until).getTime() - stop.llegada_en.getTime()) : sum),
    0,
  );
  return Math.ceil(ms / 60_000);
}

/**
 * What waiting at the stops adds to a quoted trip's most: the minutes there at the per-minute rate
 * (the time part of the fare, which the quote only estimated for driving). 0 for a trip with none.
 */
export async function waitingCharge(deps: Deps, trip: Trip, until: Date): Promise<number> {
  const minutes = minutesAtStops(await stopsOf(deps, trip.id), until);
  if (minutes === 0) return 0;
  const rate = await rateFor(deps.reads, VEHICLE_FOR_SERVICE[trip.tipo_servicio as ServiceType]);
  return Math.round(minutes * rate.precio_minuto);
}

const stopSchema = z.object({ trip_id: positiveId(), orden: positiveId() });

/**
 * The driver reaches (`llegada`) or leaves (`salida`) a stop of a trip under way, in order: a stop
 * is reached once the one before it was left, and left once reached. Each is recorded once.
 */
export async function markStop(deps: Deps, actor: Actor, input: Raw<typeof stopSchema>, mark: "llegada" | "salida"): Promise<Trip> {
  const { trip_id, orden } = parseInput(stopSchema, input);
  const trip = await getTrip(deps, trip_id);
  authorize(actor, TRIP_RULES.startRoute, trip);
  if (trip.estado !== "en_curso")
    throw new InvalidStateError(`El viaje ${trip.id} está ${trip.estado}: las paradas se marcan durante el recorrido`);
  const stops = await stopsOf(deps, trip.id);
  const stop = stops.find((candidate) => candidate.orden === orden);
  if (!stop) throw new ValidationError(`el viaje ${trip.id} no tiene la parada ${orden}`, "orden");
  const before = stops.find((candidate) => candidate.orden === orden - 1);
  if (mark === "llegada" && before && before.salida_en === null) {
    throw new InvalidStateError(`Marca la salida de la parada ${before.orden} antes de llegar a la ${orden}`);
  }
  if (mark === "salida" && stop.llegada_en === null) throw new InvalidStateError(`Marca la llegada a la parada ${orden} antes de salir`);
  const field = mark === "llegada" ? "llegada_en" : "salida_en";
  // Only the first mark counts: a retried call changes nothing.
  await deps.db.tripStop.updateMany({ where: { id: stop.id, [field]: null }, data: { [field]: deps.clock.now() } });
  const current = await getTrip(deps, trip.id);
  announceTrip(deps, current);
  return current;
}
