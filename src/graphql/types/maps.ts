import type { Point } from "../../domain/geo.js";
import type { Place } from "../../domain/map-providers.js";
import { calculateDistance, calculateRoute, geocode, reverseGeocode, type Route } from "../../domain/maps/routes.js";
import { searchPlaces, type FoundPlace } from "../../domain/maps/place-search.js";
import { NotFoundError } from "../../domain/errors.js";
import { PUBLIC } from "../sign-in.js";
import { builder } from "../builder.js";
import { MAPS } from "../errors.js";

export const PointRef = builder.objectRef<Point>("Punto").implement({
  description: "Un punto del mapa",
  fields: (t) => ({
    latitud: t.exposeFloat("latitud", { description: "Latitud (grados)" }),
    longitud: t.exposeFloat("longitud", { description: "Longitud (grados)" }),
  }),
});

const RouteEnd = builder.objectRef<Route["origen"]>("ExtremoRuta").implement({
  description: "El principio o el final de una ruta",
  fields: (t) => ({
    latitud: t.exposeFloat("latitud", { description: "Latitud (grados)" }),
    longitud: t.exposeFloat("longitud", { description: "Longitud (grados)" }),
    direccion: t.exposeString("direccion", { nullable: true, description: "La dirección, si se conoce" }),
  }),
});

const RouteRef = builder.objectRef<Route>("Ruta").implement({
  description: "El camino por carretera entre dos puntos",
  fields: (t) => ({
    origen: t.field({ type: RouteEnd, description: "De dónde", resolve: (r) => r.origen }),
    destino: t.field({ type: RouteEnd, description: "A dónde", resolve: (r) => r.destino }),
    distancia_km: t.exposeFloat("distancia_km", { description: "km por carretera" }),
    duracion_minutos: t.exposeInt("duracion_minutos", { description: "Según la hora y el día en Bogotá y las velocidades históricas" }),
    puntos: t.field({ type: [PointRef], description: "El trazado, en orden", resolve: (r) => r.puntos }),
    instrucciones: t.exposeString("instrucciones", {
      nullable: true,
      description: "Indicaciones del recorrido, si el servidor de rutas las da",
    }),
  }),
});

const LocationRef = builder.objectRef<Place>("Ubicacion").implement({
  description: "Un lugar con su dirección",
  fields: (t) => ({
    latitud: t.exposeFloat("latitud", { description: "Latitud (grados)" }),
    longitud: t.exposeFloat("longitud", { description: "Longitud (grados)" }),
    direccion: t.exposeString("direccion", { description: "La dirección" }),
    ciudad: t.exposeString("ciudad", { nullable: true, description: "El municipio" }),
    departamento: t.exposeString("departamento", { nullable: true, description: "El departamento" }),
    pais: t.exposeString("pais", { description: "El país" }),
  }),
});

const FoundPlaceRef = builder.objectRef<FoundPlace>("LugarEncontrado").implement({
  description: "Un lugar que coincide con una búsqueda",
  fields: (t) => ({
    latitud: t.exposeFloat("latitud", { description: "Latitud del lugar" }),
    longitud: t.exposeFloat("longitud", { description: "Longitud del lugar" }),
    direccion: t.exposeString("direccion", { description: "El lugar descrito en una línea" }),
    ciudad: t.exposeString("ciudad", { nullable: true, description: "El municipio" }),
    departamento: t.exposeString("departamento", { nullable: true, description: "El departamento" }),
    pais: t.exposeString("pais", { description: "El país" }),
    distancia_km: t.exposeFloat("distancia_km", { description: "En línea recta desde el punto de quien busca, en km" }),
  }),
});

/** A place on input: trips need `direccion`, routes do not. */
export const PlaceInput = builder.inputType("LugarInput", {
  description: "Un punto del mapa, con su dirección si se conoce",
  fields: (t) => ({
    latitud: t.float({ required: true, description: "Latitud (grados, -90 a 90)" }),
    longitud: t.float({ required: true, description: "Longitud (grados, -180 a 180)" }),
    direccion: t.string({ description: "La dirección" }),
    referencia: t.string({ description: "Punto de referencia o indicaciones" }),
  }),
});

const routeArgs = builder.args((t) => ({
  origin: t.field({ type: PlaceInput, required: true, description: "De dónde" }),
  destination: t.field({ type: PlaceInput, required: true, description: "A dónde" }),
}));

builder.queryFields((t) => ({
  route: t.field({
    ...PUBLIC,
    type: RouteRef,
    description: "La ruta por carretera entre dos puntos, con su distancia y duración",
    errors: { types: MAPS },
    args: routeArgs,
    resolve: (_root, args, ctx) => calculateRoute(ctx.deps, args),
  }),
  distance: t.float({
    ...PUBLIC,
    description: "Distancia por carretera en kilómetros",
    errors: { types: MAPS, directResult: false, dataField: { description: "km" } },
    args: routeArgs,
    resolve: (_root, args, ctx) => calculateDistance(ctx.deps, args),
  }),
  geocode: t.field({
    ...PUBLIC,
    type: LocationRef,
    description: "El lugar de una dirección",
    errors: { types: [...MAPS, NotFoundError] },
    args: { address: t.arg.string({ required: true, description: "La dirección" }) },
    resolve: (_root, args, ctx) => geocode(ctx.deps, args),
  }),
  searchPlaces: t.field({
    ...PUBLIC,
    type: [FoundPlaceRef],
    description:
      "Lugares que coinciden con una búsqueda, los más cercanos a quien busca primero: del servidor Nominatim si hay uno " +
      "(el nomenclátor de municipios de Colombia lo reemplaza si falla o no encuentra nada), o del nomenclátor",
    errors: { types: MAPS, dataField: { description: "Los lugares, los más cercanos primero" } },
    args: {
      query: t.arg.string({ required: true, description: "Lo que se busca: un lugar, un municipio o una dirección (2 a 200 caracteres)" }),
      lat: t.arg.float({ required: true, description: "Latitud de quien busca" }),
      lng: t.arg.float({ required: true, description: "Longitud de quien busca" }),
      radio_km: t.arg.float({
        description: "Zona que el servidor de mapas mira primero, en km (25 por defecto, hasta 100); no excluye lugares más lejanos",
      }),
      limit: t.arg.int({ description: "Cuántos lugares responder, de 1 a 20 (10 por defecto)" }),
    },
    resolve: (_root, args, ctx) => searchPlaces(ctx.deps, args),
  }),
  reverseGeocode: t.field({
    ...PUBLIC,
    type: LocationRef,
    description: "La dirección de un punto",
    errors: { types: [...MAPS, NotFoundError] },
    args: {
      lat: t.arg.float({ required: true, description: "Latitud (grados)" }),
      lng: t.arg.float({ required: true, description: "Longitud (grados)" }),
    },
    resolve: (_root, args, ctx) => reverseGeocode(ctx.deps, args),
  }),
}));
