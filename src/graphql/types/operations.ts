import { queryFromInfo } from "@pothos/plugin-prisma";
import { ValidationError } from "../../domain/errors.js";
import { searchTrips, TRIP_SORTING } from "../../domain/trips/search.js";
import { builder } from "../builder.js";
import { RESTRICTED } from "../errors.js";
import { pageArgs, pageType, sortArgs } from "./lists.js";
import { ServiceTypeEnum, TripRef, TripStateEnum } from "./trip.js";

const TripPage = pageType("PaginaViajes", TripRef, "Una página de viajes");

/** What every list of trips filters, searches and sorts by, besides whose trips they are. */
export const tripListArgs = {
  ...pageArgs,
  ...builder.args((t) => ({
    estados: t.field({ type: [TripStateEnum], description: "Solo los que están en alguno de estos estados; sin él, todos" }),
    tipo_servicio: t.field({ type: ServiceTypeEnum, description: "Solo los de este servicio" }),
    conductor_id: t.int({ description: "Solo los de este conductor" }),
    desde: t.string({ description: "Pedidos desde esta fecha ISO 8601; un día sin hora empieza a las 00:00 en Bogotá" }),
    hasta: t.string({ description: "Pedidos hasta esta fecha ISO 8601; un día sin hora lo incluye entero" }),
    search: t.string({ description: "El número del viaje (solo cifras), o parte de la dirección de origen o de destino" }),
  })),
  ...sortArgs("OrdenViajes", "Por qué se ordena la lista de viajes", TRIP_SORTING, {
    fecha_solicitud: "Cuándo se pidió",
    id: "Su número",
    precio_estimado: "Su precio estimado",
    distancia_km: "Su distancia",
  }),
};

builder.queryFields((t) => ({
  trips: t.field({
    type: TripPage,
    description: "Todos los viajes, filtrados, buscados y ordenados, por páginas (solo administradores)",
    errors: { types: [...RESTRICTED, ValidationError] },
    args: {
      ...tripListArgs,
      pasajero_id: t.arg.int({ description: "Solo los de este pasajero" }),
      empresa_id: t.arg.int({
        description: "Solo los hechos para esta empresa: la de su conductor cuando lo aceptó, como en companyTrips",
      }),
    },
    // What the page's trips show (passenger, driver, vehicle) is read with them, not trip by trip.
    resolve: (_root, args, ctx, info) => searchTrips(ctx.deps, ctx.actor, args, queryFromInfo({ context: ctx, info, path: ["items"] })),
  }),
}));
