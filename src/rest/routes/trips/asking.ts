import { z } from "zod";
import { PAYMENT_METHODS } from "../../../domain/payment-methods.js";
import { SERVICE_TYPES, VEHICLE_TYPES } from "../../../domain/service-types.js";
import { optional } from "../../../domain/validation.js";
import { VEHICLE_TYPE_SPELLINGS, legacyChoice, legacyId, legacyNumber, legacyPlace, legacyText } from "../../legacy-fields.js";
import { appVehicleType } from "../../app-vocabulary.js";
import { TRIP } from "../../resources.js";
import { defineRoute, operation, type GraphQLData } from "../../route.js";
import { TRIP_FRAGMENT } from "./calls.js";
import { FLAT_NAMES, FLAT_TRIP_FIELDS, placesSent, tripInput } from "./flat-request.js";

const NEARBY_CAR = z.object({ vehiculo_tipo: z.string(), latitud: z.number(), longitud: z.number(), distancia_km: z.number() });

const NEARBY_CARS = operation(`query NearbyCars($latitud: Float!, $longitud: Float!, $tipo_vehiculo: TipoVehiculo!, $radio_km: Float) {
  nearbyDrivers(latitud: $latitud, longitud: $longitud, tipo_vehiculo: $tipo_vehiculo, radio_km: $radio_km) {
    ...LegacyError ... on QueryNearbyDriversSuccess { data { tipo_vehiculo latitud longitud distancia_km } }
  }
}`);

/** A car near the pickup, its vehicle in the app's words; the searching screen only counts them. */
const nearbyCar = ({ tipo_vehiculo, ...car }: GraphQLData) => ({ vehiculo_tipo: appVehicleType(tipo_vehiculo), ...car });

/** A passenger asks for a trip, and sees the cars near the pickup. */
export const askingRoutes = [
  defineRoute({
    method: "POST",
    path: "/viajes/create_trip.php",
    summary: "El pasajero pide un viaje; 200 con success false si no hay conductores a menos de 5 km",
    requireJsonContentType: true,
    input: z.object({
      usuario_id: legacyId(),
      tipo_servicio: legacyChoice(SERVICE_TYPES),
      metodo_pago: optional(legacyChoice(PAYMENT_METHODS)),
      // Each place sent, or named by one of the passenger's saved places (lugares_favoritos.php).
      origen: optional(legacyPlace({ addressRequired: true })),
      destino: optional(legacyPlace({ addressRequired: true })),
      lugar_origen_id: optional(legacyId()),
      lugar_destino_id: optional(legacyId()),
      // The quote the passenger was given (/pricing/calculate_quote.php): the most the trip is charged.
      cotizacion_id: optional(legacyText()),
    }),
    caller: "usuario_id",
    document: operation(
      `mutation CreateTrip($input: CreateTripInput!) { createTrip(input: $input) { ...LegacyError ...LegacyTrip } }`,
      TRIP_FRAGMENT,
    ),
    variables: ({ usuario_id: _caller, ...input }) => ({ input }),
    output: z.object({ trip: TRIP }),
    respond: (trip) => ({ message: "Viaje creado; estamos avisando a los conductores cercanos", trip }),
  }),
  defineRoute({
    method: "POST",
    path: "/user/create_trip_request.php",
    summary: "El pasajero pide un viaje con coordenadas planas; responde solicitud_id",
    input: z.object({ ...FLAT_TRIP_FIELDS, cotizacion_id: optional(legacyText()) }).superRefine(placesSent),
    // The app's own estimates: the service computes route and price itself.
    ignored: ["distancia_km", "duracion_minutos", "precio_estimado"],
    caller: "usuario_id",
    document: operation(
      `mutation CreateTrip($input: CreateTripInput!) {
        createTrip(input: $input) { ...LegacyError ...LegacyTrip ... on Viaje { conductores_avisados } }
      }`,
      TRIP_FRAGMENT,
    ),
    variables: (input) => ({ input: tripInput(input) }),
    legacyNames: FLAT_NAMES,
    output: z.object({ solicitud_id: z.int(), conductores_encontrados: z.int(), trip: TRIP }),
    respond: ({ conductores_avisados, ...trip }) => ({
      message: "Viaje creado; estamos avisando a los conductores cercanos",
      solicitud_id: trip.id,
      conductores_encontrados: conductores_avisados,
      trip,
    }),
  }),
  defineRoute({
    public: true,
    method: "POST",
    path: "/user/find_nearby_drivers.php",
    summary: "Vehículos libres cerca de un punto (como mucho 10, a 5 km o menos), con su posición aproximada y sin datos del conductor",
    input: z.object({
      latitud: legacyNumber(),
      longitud: legacyNumber(),
      tipo_vehiculo: legacyChoice(VEHICLE_TYPES, VEHICLE_TYPE_SPELLINGS),
      radio_km: optional(legacyNumber()),
    }),
    document: NEARBY_CARS,
    variables: (input) => input,
    output: z.object({ total: z.int(), conductores: z.array(NEARBY_CAR) }),
    respond: (result) => ({ total: result.data.length, conductores: result.data.map(nearbyCar) }),
  }),
  defineRoute({
    public: true,
    method: "GET",
    path: "/viajes/find_nearby_drivers.php",
    summary: "Lo mismo que /user/find_nearby_drivers.php con los nombres de la otra pantalla del app (tipo de servicio, radius)",
    // tipo is the service the app asks for: motocicleta and auto name their vehicles; there is no delivery service.
    input: z.object({
      latitud: legacyNumber(),
      longitud: legacyNumber(),
      tipo: legacyChoice(VEHICLE_TYPES, VEHICLE_TYPE_SPELLINGS),
      radius: optional(legacyNumber()),
    }),
    document: NEARBY_CARS,
    variables: ({ latitud, longitud, tipo, radius }) => ({ latitud, longitud, tipo_vehiculo: tipo, radio_km: radius }),
    legacyNames: { tipo_vehiculo: "tipo", radio_km: "radius" },
    output: z.object({ total: z.int(), drivers: z.array(NEARBY_CAR) }),
    respond: (result) => ({ total: result.data.length, drivers: result.data.map(nearbyCar) }),
  }),
];
