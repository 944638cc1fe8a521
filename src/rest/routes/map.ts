import { z } from "zod";
import { missingOr, optional } from "../../domain/validation.js";
import { legacyNumber, legacyText } from "../legacy-fields.js";
import { defineRoute, operation } from "../route.js";

const point = () =>
  z.object(
    { latitud: legacyNumber(), longitud: legacyNumber(), direccion: optional(legacyText()) },
    { error: missingOr("debe ser un objeto con latitud y longitud") },
  );

const ends = z.object({ origin: point(), destination: point() });

const LOCATION = "latitud longitud direccion ciudad departamento pais";

export const mapRoutes = [
  defineRoute({
    public: true,
    method: "POST",
    path: "/map/calculate_route.php",
    input: ends,
    document: operation(`query Route($origin: LugarInput!, $destination: LugarInput!) {
      route(origin: $origin, destination: $destination) {
        ...LegacyError
        ... on Ruta {
          origen { latitud longitud direccion }
          destino { latitud longitud direccion }
          distancia_km duracion_minutos puntos { latitud longitud } instrucciones
        }
      }
    }`),
    variables: (input) => input,
    respond: (route) => ({ route }),
  }),
  defineRoute({
    public: true,
    method: "POST",
    path: "/map/calculate_distance.php",
    input: ends,
    document: operation(`query Distance($origin: LugarInput!, $destination: LugarInput!) {
      distance(origin: $origin, destination: $destination) { ...LegacyError ... on QueryDistanceSuccess { data } }
    }`),
    variables: (input) => input,
    respond: (result) => ({ distance: result.data }),
  }),
  defineRoute({
    public: true,
    method: "GET",
    path: "/map/geocode.php",
    input: z.object({ address: legacyText() }),
    document: operation(`query Geocode($address: String!) { geocode(address: $address) { ...LegacyError ... on Ubicacion { ${LOCATION} } } }`),
    variables: (input) => input,
    respond: (location) => ({ location }),
  }),
  defineRoute({
    public: true,
    method: "GET",
    path: "/map/reverse_geocode.php",
    input: z.object({ lat: legacyNumber(), lng: legacyNumber() }),
    document: operation(`query ReverseGeocode($lat: Float!, $lng: Float!) {
      reverseGeocode(lat: $lat, lng: $lng) { ...LegacyError ... on Ubicacion { ${LOCATION} } }
    }`),
    variables: (input) => input,
    respond: (location) => ({ location }),
  }),
];
