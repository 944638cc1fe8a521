import { z } from "zod";
import { optional } from "../../domain/validation.js";
import { legacyInt, legacyNumber, legacyPlace, legacyText } from "../legacy-fields.js";
import { FOUND_PLACE, ROUTE, selection } from "../resources.js";
import { defineRoute, operation } from "../route.js";

const ends = z.object({ origin: legacyPlace(), destination: legacyPlace() });

const LOCATION = selection(FOUND_PLACE);

export const mapRoutes = [
  defineRoute({
    public: true,
    method: "POST",
    path: "/map/calculate_route.php",
    summary: "Ruta entre dos puntos, con su distancia y duración para el tráfico del momento",
    input: ends,
    document: operation(`query Route($origin: LugarInput!, $destination: LugarInput!) {
      route(origin: $origin, destination: $destination) {
        ...LegacyError
        ... on Ruta { ${selection(ROUTE)} }
      }
    }`),
    variables: (input) => input,
    output: z.object({ route: ROUTE }),
    respond: (route) => ({ route }),
  }),
  defineRoute({
    public: true,
    method: "POST",
    path: "/map/calculate_distance.php",
    summary: "Distancia por vía entre dos puntos, en km",
    input: ends,
    document: operation(`query Distance($origin: LugarInput!, $destination: LugarInput!) {
      distance(origin: $origin, destination: $destination) { ...LegacyError ... on QueryDistanceSuccess { data } }
    }`),
    variables: (input) => input,
    output: z.object({ distance: z.number() }),
    respond: (result) => ({ distance: result.data }),
  }),
  defineRoute({
    public: true,
    method: "GET",
    path: "/map/geocode.php",
    summary: "Coordenadas de una dirección",
    input: z.object({ address: legacyText() }),
    document: operation(
      `query Geocode($address: String!) { geocode(address: $address) { ...LegacyError ... on Ubicacion { ${LOCATION} } } }`,
    ),
    variables: (input) => input,
    output: z.object({ location: FOUND_PLACE }),
    respond: (location) => ({ location }),
  }),
  defineRoute({
    public: true,
    method: "GET",
    path: "/map/search_places.php",
    summary:
      "Lugares que coinciden con una búsqueda, los más cercanos primero (radius: la zona que el servidor de mapas mira primero, en km)",
    input: z.object({
      lat: legacyNumber(),
      lng: legacyNumber(),
      query: legacyText(),
      radius: optional(legacyNumber()),
      limit: optional(legacyInt()),
    }),
    document: operation(`query SearchPlaces($query: String!, $lat: Float!, $lng: Float!, $radio_km: Float, $limit: Int) {
      searchPlaces(query: $query, lat: $lat, lng: $lng, radio_km: $radio_km, limit: $limit) {
        ...LegacyError ... on QuerySearchPlacesSuccess { data { ${LOCATION} distancia_km } }
      }
    }`),
    variables: ({ radius, ...input }) => ({ ...input, radio_km: radius }),
    legacyNames: { radio_km: "radius" },
    output: z.object({ places: z.array(FOUND_PLACE.extend({ distancia_km: z.number() })) }),
    respond: (result) => ({ places: result.data }),
  }),
  defineRoute({
    public: true,
    method: "GET",
    path: "/map/reverse_geocode.php",
    summary: "Dirección de unas coordenadas",
    input: z.object({ lat: legacyNumber(), lng: legacyNumber() }),
    document: operation(`query ReverseGeocode($lat: Float!, $lng: Float!) {
      reverseGeocode(lat: $lat, lng: $lng) { ...LegacyError ... on Ubicacion { ${LOCATION} } }
    }`),
    variables: (input) => input,
    output: z.object({ location: FOUND_PLACE }),
    respond: (location) => ({ location }),
  }),
];
