import { z } from "zod";
import { lockUser } from "../../db/locks.js";
import type { Notification, Trip, TripChange } from "../../db/models.js";
import { authorize, type Actor } from "../actor.js";
import { MAX_STOPS, priceTrip, withAddress } from "../booking/request.js";
import type { Deps } from "../deps.js";
import { ConflictError, InvalidStateError, NotFoundError, ValidationError } from "../errors.js";
import { greatCircleKm, type Point } from "../geo.js";
import { placeSchema, type PlaceInput } from "../maps/place.js";
import { announce, createNotification } from "../notifications/notifications.js";
import { withSavedPlaces } from "../places/saved-places.js";
import type { ServiceType } from "../service-types.js";
import { optional, parseInput, positiveId, type Raw } from "../validation.js";
import { TRIP_RULES } from "./access.js";
import { announceTrip } from "./announce.js";
import { recordTripEvent } from "./history.js";
import { getTrip } from "./queries.js";
import { saveStops } from "./stops.js";

/* A passenger changes the destination or the stops still to come during the ride; the driver says yes in time, or nothing changes. */

/** States in which the way can still change: a driver has the trip and it has not ended. */
const CHANGEABLE = ["aceptado", "en_ruta", "en_curso"];

const requestSchema = z.object({
  trip_id: positiveId(),
  destino: optional(placeSchema()),
  paradas: optional(z.array(placeSchema(), { error: "debe ser una lista de lugares" })),
});
const answerSchema = z.object({ cambio_id: positiveId(), aceptar: z.boolean({ error: "debe ser true o false" }) });

const samePlace = (a: Point, b: Point) => greatCircleKm(a, b) <= 0.05;

/** A stored place (a stop, a trip's destination) as a place input. */
const asPlace = (place: Point & { direccion: string; referencia?: string | null }): PlaceInput => ({
  direccion: place.direccion,
  latitud: place.latitud,
  longitud: place.longitud,
  referencia: place.referencia ?? undefined,
});

/**
 * The passenger asks to go to another destination (sent, or one of their saved places) or through
 * other stops (those still to come; the ones reached stay). The way is re-quoted from the pickup
 * through every stop at the rules and demand the trip was asked with; the driver is asked on their
 * feed and on the trip's subscription, and has CHANGE_ANSWER_S to say yes. One change waits at a time.
 */
export async function requestTripChange(
  deps: Deps,
  actor: Actor,
  input: Raw<typeof requestSchema> & { lugar_destino_id?: unknown },
): Promise<TripChange> {
  const { lugar_destino_id, ...fields } = input;
  const trip = await getTrip(deps, parseInput(requestSchema.pick({ trip_id: true }), fields).trip_id);
  authorize(actor, TRIP_RULES.change, trip);
  const named = await withSavedPlaces(deps, trip.usuario_id!, { destino: fields.destino, lugar_destino_id });
  const { destino, paradas } = parseInput(requestSchema, { ...fields, destino: named.destino });
  if (!CHANGEABLE.includes(trip.estado)) {
    throw new InvalidStateError(`El viaje ${trip.id} está ${trip.estado}: solo cambia un viaje con conductor que no ha terminado`);
  }
  const stops = await deps.db.tripStop.findMany({ where: { viaje_id: trip.id }, orderBy: { orden: "asc" } });
  const reached = stops.filter((stop) => stop.llegada_en !== null);
  const toCome = paradas ?? stops.filter((stop) => stop.llegada_en === null).map(asPlace);
  if (reached.length + toCome.length > MAX_STOPS) {
    throw new ValidationError(`admite como mucho ${MAX_STOPS} paradas en todo el viaje (${reached.length} ya alcanzadas)`, "paradas");
  }
  const current = asPlace({
    latitud: trip.destino_latitud,
    longitud: trip.destino_longitud,
    direccion: trip.destino_direccion,
    referencia: trip.destino_referencia,
  });
  const newDestination = destino ?? current;
  const sameStops =
    toCome.length === stops.length - reached.length && toCome.every((stop, i) => samePlace(stop, stops[reached.length + i]!));
  if (samePlace(newDestination, current) && sameStops) throw new ValidationError("No cambia nada: envía otro destino u otras paradas");

  const [place, ...coming] = await Promise.all([newDestination, ...toCome].map((stop) => withAddress(deps, stop)));
  const origen = asPlace({ latitud: trip.origen_latitud, longitud: trip.origen_longitud, direccion: trip.origen_direccion });
  const { fare, route } = await priceTrip(
    deps,
    { serviceType: trip.tipo_servicio as ServiceType, origen, destino: place!, paradas: [...reached.map(asPlace), ...coming] },
    { at: trip.fecha_solicitud, demand: trip.multiplicador_demanda },
  );
  const now = deps.clock.now();
  let notice: Notification | null = null;
  const change = await deps.db.$transaction(async (tx) => {
    // Holding the passenger's row: of two changes asked at once, one waits and then finds the other.
    await lockUser(tx, deps.provider, trip.usuario_id!);
    const waiting = await tx.tripChange.findFirst({ where: { viaje_id: trip.id, estado: "pendiente", vence_en: { gt: now } } });
    if (waiting) throw new ConflictError(`El conductor aún no responde el cambio ${waiting.id}; espera su respuesta`);
    const asked = await tx.tripChange.create({
      data: {
        viaje_id: trip.id,
        solicitado_por: trip.usuario_id!,
        destino_direccion: place!.direccion,
        destino_latitud: place!.latitud,
        destino_longitud: place!.longitud,
        destino_referencia: place!.referencia ?? null,
        paradas: JSON.stringify(coming),
        precio_antes: trip.precio_estimado,
        precio_despues: fare.precio_estimado,
        distancia_km: route.distancia_km,
        duracion_estimada_minutos: route.duracion_minutos,
        creado_en: now,
        vence_en: new Date(now.getTime() + deps.booking.changeAnswerMs),
      },
    });
    await recordTripEvent(tx, trip, "cambio_pedido", actor, now, changeDetails(asked));
    notice = await createNotification(tx, trip.conductor_id!, {
      tipo: "cambio_viaje",
      titulo: "El pasajero pide cambiar el viaje",
      mensaje: `Nuevo destino: ${asked.destino_direccion}; precio ${asked.precio_antes} → ${asked.precio_despues} COP. Responde en ${Math.round(deps.booking.changeAnswerMs / 1000)} segundos.`,
    });
    return asked;
  });
  if (notice) announce(deps, notice);
  announceTrip(deps, trip);
  return change;
}

/** What the history keeps of a change: which one, and the price before and after. */
const changeDetails = (change: TripChange) => ({
  cambio_id: change.id,
  precio_antes: change.precio_antes,
  precio_despues: change.precio_despues,
});

/** A change and the trip it is of. */
async function changeOf(deps: Deps, id: number): Promise<{ change: TripChange; trip: Trip }> {
  const change = await deps.db.tripChange.findUnique({ where: { id } });
  if (!change) throw new NotFoundError(`No existe un cambio de viaje con id ${id}`);
  return { change, trip: await getTrip(deps, change.viaje_id) };
}

/**
 * The trip's driver answers a change in time. Accepted, the trip takes the new destination and
 * stops (those reached stay), its new price becomes the most it is charged, and the passenger is
 * told; refused, nothing changes and the passenger is told. Of an answer and the deadline, the first wins.
 */
export async function answerTripChange(deps: Deps, actor: Actor, input: Raw<typeof answerSchema>): Promise<TripChange> {
  const { cambio_id, aceptar } = parseInput(answerSchema, input);
  const { change, trip } = await changeOf(deps, cambio_id);
  authorize(actor, TRIP_RULES.startRoute, trip);
  const now = deps.clock.now();
  if (change.estado !== "pendiente" || change.vence_en <= now) {
    throw new InvalidStateError(
      `El cambio ${change.id} ya no espera respuesta (${change.estado === "pendiente" ? "venció" : change.estado})`,
    );
  }
  let notice: Notification | null = null;
  const answered = await deps.db.$transaction(async (tx) => {
    const estado = aceptar ? "aceptado" : "rechazado";
    const { count } = await tx.tripChange.updateMany({
      where: { id: change.id, estado: "pendiente", vence_en: { gt: now } },
      data: { estado, respondido_en: now },
    });
    if (count === 0) throw new InvalidStateError(`El cambio ${change.id} ya no espera respuesta`);
    if (aceptar) {
      const moved = await tx.trip.updateMany({
        where: { id: trip.id, estado: { in: CHANGEABLE } },
        data: {
          destino_direccion: change.destino_direccion,
          destino_latitud: change.destino_latitud,
          destino_longitud: change.destino_longitud,
          destino_referencia: change.destino_referencia,
          precio_estimado: change.precio_despues,
          precio_cotizado: change.precio_despues,
          distancia_km: change.distancia_km,
          duracion_estimada_minutos: change.duracion_estimada_minutos,
        },
      });
      if (moved.count === 0) throw new InvalidStateError(`El viaje ${trip.id} ya terminó`);
      const reached = await tx.tripStop.count({ where: { viaje_id: trip.id, llegada_en: { not: null } } });
      await tx.tripStop.deleteMany({ where: { viaje_id: trip.id, llegada_en: null } });
      await saveStops(tx, trip.id, JSON.parse(change.paradas), reached);
    }
    await recordTripEvent(tx, trip, aceptar ? "cambio_aceptado" : "cambio_rechazado", actor, now, changeDetails(change));
    notice = await createNotification(tx, trip.usuario_id!, {
      tipo: "cambio_viaje",
      titulo: aceptar ? "El conductor aceptó tu cambio" : "El conductor no aceptó tu cambio",
      mensaje: aceptar
        ? `Vas a ${change.destino_direccion}; el viaje cuesta ahora como mucho ${change.precio_despues} COP.`
        : "Tu viaje sigue como estaba.",
    });
    return tx.tripChange.findUniqueOrThrow({ where: { id: change.id } });
  });
  if (notice) announce(deps, notice);
  announceTrip(deps, await getTrip(deps, trip.id));
  return answered;
}

/** Ends the changes nobody answered in time: nothing changes, and each passenger is told once. */
export async function expireTripChanges(deps: Deps): Promise<boolean> {
  const now = deps.clock.now();
  const due = await deps.db.tripChange.findMany({ where: { estado: "pendiente", vence_en: { lte: now } }, take: 200 });
  for (const change of due) {
    let notice: Notification | null = null;
    await deps.db.$transaction(async (tx) => {
      const { count } = await tx.tripChange.updateMany({ where: { id: change.id, estado: "pendiente" }, data: { estado: "vencido" } });
      if (count === 0) return;
      await recordTripEvent(tx, { id: change.viaje_id }, "cambio_vencido", null, now, changeDetails(change));
      notice = await createNotification(tx, change.solicitado_por, {
        tipo: "cambio_viaje",
        titulo: "Tu cambio no se aplicó",
        mensaje: "El conductor no respondió a tiempo; tu viaje sigue como estaba.",
      });
    });
    if (notice) announce(deps, notice);
  }
  return due.length === 200;
}

/** A trip's changes, newest first, for whoever follows the trip; null for anyone else. */
export async function tripChanges(deps: Deps, actor: Actor, trip: Trip): Promise<TripChange[] | null> {
  if (!TRIP_RULES.follow.allows(actor, trip)) return null;
  return deps.db.tripChange.findMany({ where: { viaje_id: trip.id }, orderBy: { id: "desc" } });
}
