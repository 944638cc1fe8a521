import type { Point } from "../../domain/maps/geo.js";
import type { Place } from "../../domain/maps/providers.js";
import { calculateDistance, calculateRoute, geocode, reverseGeocode, type Route } from "../../domain/maps/routes.js";
import { NotFoundError } from "../../domain/errors.js";
import { PUBLIC } from "../sign-in.js";
import { builder } from "../builder.js";
import { MAPS } from "../errors.js";

const PointRef = builder.objectRef<Point>("Punto").implement({
  fields: (t) => ({ latitud: t.exposeFloat("latitud"), longitud: t.exposeFloat("longitud") }),
});

const RouteEnd = builder.objectRef<Route["origen"]>("ExtremoRuta").implement({
  fields: (t) => ({
    latitud: t.exposeFloat("latitud"),
    longitud: t.exposeFloat("longitud"),
    direccion: t.exposeString("direccion", { nullable: true }),
  }),
});

const RouteRef = builder.objectRef<Route>("Ruta").implement({
  fields: (t) => ({
    origen: t.field({ type: RouteEnd, resolve: (r) => r.origen }),
    destino: t.field({ type: RouteEnd, resolve: (r) => r.destino }),
    distancia_km: t.exposeFloat("distancia_km"),
    duracion_minutos: t.exposeInt("duracion_minutos", { description: "Según la hora y el día en Bogotá y las velocidades históricas" }),
    puntos: t.field({ type: [PointRef], resolve: (r) => r.puntos }),
    instrucciones: t.exposeString("instrucciones", { nullable: true }),
  }),
});

const LocationRef = builder.objectRef<Place>("Ubicacion").implement({
  fields: (t) => ({
    latitud: t.exposeFloat("latitud"),
    longitud: t.exposeFloat("longitud"),
    direccion: t.exposeString("direccion"),
    ciudad: t.exposeString("ciudad", { nullable: true }),
    departamento: t.exposeString("departamento", { nullable: true }),
    pais: t.exposeString("pais"),
  }),
});

/** A place on input: trips need `direccion`, routes do not. */
export const PlaceInput = builder.inputType("LugarInput", {
  fields: (t) => ({
    latitud: t.float({ required: true }),
    longitud: t.float({ required: true }),
    direccion: t.string(),
    referencia: t.string({ description: "Punto de referencia o indicaciones" }),
  }),
});

const routeArgs = builder.args((t) => ({
  origin: t.field({ type: PlaceInput, required: true }),
  destination: t.field({ type: PlaceInput, required: true }),
}));

builder.queryFields((t) => ({
  route: t.field({
    ...PUBLIC,
    type: RouteRef,
    errors: { types: MAPS },
    args: routeArgs,
    resolve: (_root, args, ctx) => calculateRoute(ctx.deps, args),
  }),
  distance: t.float({
    ...PUBLIC,
    description: "Distancia por carretera en kilómetros",
    errors: { types: MAPS, directResult: false },
    args: routeArgs,
    resolve: (_root, args, ctx) => calculateDistance(ctx.deps, args),
  }),
  geocode: t.field({
    ...PUBLIC,
    type: LocationRef,
    errors: { types: [...MAPS, NotFoundError] },
    args: { address: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => geocode(ctx.deps, args),
  }),
  reverseGeocode: t.field({
    ...PUBLIC,
    type: LocationRef,
    errors: { types: [...MAPS, NotFoundError] },
    args: { lat: t.arg.float({ required: true }), lng: t.arg.float({ required: true }) },
    resolve: (_root, args, ctx) => reverseGeocode(ctx.deps, args),
  }),
}));
