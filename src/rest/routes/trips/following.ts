import { z } from "zod";
import { optional } from "../../../domain/validation.js";
import { legacyId } from "../../legacy-fields.js";
import { APP_TRIP_STATE, appTripState, appVehicleType } from "../../app-vocabulary.js";
import { TRIP } from "../../resources.js";
import { defineRoute, operation } from "../../route.js";
import { TRIP_FRAGMENT } from "./calls.js";

const SHOWN_VEHICLE = z.object({
  tipo: z.string().nullable(),
  marca: z.string().nullable(),
  modelo: z.string().nullable(),
  placa: z.string().nullable(),
  color: z.string().nullable(),
});

const ASSIGNED_DRIVER = z.object({
  nombre: z.string(),
  apellido: z.string(),
  telefono: z.string(),
  vehiculo: SHOWN_VEHICLE.nullable(),
});

/** Who is coming, as the app's waiting screen reads `trip.conductor` (_buildDriverFoundInfo in https://github.com/Braian551/pingo/blob/35be6b2751ba54667ec1437fc46cd3a8ee79fd51/lib/src/features/user/presentation/screens/waiting_for_driver_screen.dart). */
const COMING_DRIVER = z.object({
  nombre: z.string(),
  telefono: z.string(),
  calificacion: z.number(),
  vehiculo: SHOWN_VEHICLE,
  ubicacion: z.object({ latitud: z.number(), longitud: z.number() }).nullable(),
});

/** A trip as its parties follow it: the trip, and its state for the passenger's waiting screen. */
export const followingRoutes = [
  defineRoute({
    method: "GET",
    path: "/viajes/get_trip.php",
    summary: "Un viaje, para sus partes y los administradores",
    input: z.object({ trip_id: legacyId() }),
    spellings: { solicitud_id: "trip_id" },
    document: operation(
      `query Trip($trip_id: Int!) {
        trip(trip_id: $trip_id) {
          ...LegacyError ...LegacyTrip ... on Viaje { conductor { nombre apellido telefono } vehiculo { tipo marca modelo placa color } }
        }
      }`,
      TRIP_FRAGMENT,
    ),
    variables: (input) => input,
    output: z.object({ trip: TRIP.extend({ conductor: ASSIGNED_DRIVER.nullable() }) }),
    // Who is coming, under trip.conductor, for the trip's parties and administrators.
    respond: ({ conductor, vehiculo, ...trip }) => ({ trip: { ...trip, conductor: conductor && { ...conductor, vehiculo } } }),
  }),
  defineRoute({
    method: "GET",
    path: "/user/get_trip_status.php",
    summary:
      "El estado de una solicitud en las palabras del app, con el conductor que viene y dónde está; " +
      "el conductor solo para el pasajero, el conductor y los administradores",
    input: z.object({ solicitud_id: legacyId(), usuario_id: optional(legacyId()) }),
    spellings: { cliente_id: "usuario_id" },
    caller: "usuario_id",
    document: operation(
      `query TripStatus($trip_id: Int!) {
        trip(trip_id: $trip_id) {
          ...LegacyError
          ...LegacyTrip
          ... on Viaje {
            conductor { nombre apellido telefono calificacion }
            vehiculo { tipo marca modelo placa color }
            ubicacion_conductor { latitud longitud }
          }
        }
      }`,
      TRIP_FRAGMENT,
    ),
    variables: ({ solicitud_id }) => ({ trip_id: solicitud_id }),
    legacyNames: { trip_id: "solicitud_id" },
    output: z.object({
      trip: TRIP.extend({
        estado: APP_TRIP_STATE,
        tiempo_estimado_min: z.int(),
        fecha_creacion: z.iso.datetime(),
        conductor: COMING_DRIVER.nullable(),
      }),
    }),
    respond: ({ conductor, vehiculo, ubicacion_conductor, ...trip }) => ({
      trip: {
        ...trip,
        estado: appTripState(trip.estado),
        tiempo_estimado_min: trip.duracion_estimada_minutos,
        fecha_creacion: trip.fecha_solicitud,
        conductor: conductor && {
          nombre: `${conductor.nombre} ${conductor.apellido}`,
          telefono: conductor.telefono,
          calificacion: conductor.calificacion,
          // The screen reads vehiculo.tipo with no null check.
          vehiculo: { marca: null, modelo: null, placa: null, color: null, ...vehiculo, tipo: appVehicleType(vehiculo?.tipo ?? null) },
          ubicacion: ubicacion_conductor,
        },
      },
    }),
  }),
];
