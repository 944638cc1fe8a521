import { queryFromInfo } from "@pothos/plugin-prisma";
import { ValidationError } from "../../domain/errors.js";
import { searchTrips, TRIP_SORTING } from "../../domain/trips/search.js";
import { builder } from "../builder.js";
import { RESTRICTED } from "../errors.js";
import { pageArgs, pageType, sortArgs } from "./lists.js";
import { ServiceTypeEnum, TripRef, TripStateEnum } from "./trips.js";

const TripPage = pageType("PaginaViajes", TripRef, "Una página de viajes");

builder.queryFields((t) => ({
  trips: t.field({
    type: TripPage,
    description: "Todos los viajes, filtrados, buscados y ordenados, por páginas (solo administradores)",
    errors: { types: [...RESTRICTED, ValidationError] },
    args: {
      ...pageArgs,
      estados: t.arg({ type: [TripStateEnum], description: "Solo los que están en alguno de estos estados; sin él, todos" }),
      tipo_servicio: t.arg({ type: ServiceTypeEnum, description: "Solo los de este servicio" }),
      pasajero_id: t.arg.int({ description: "Solo los de este pasajero" }),
      conductor_id: t.arg.int({ description: "Solo los de este conductor" }),
      empresa_id: t.arg.int({ description: "Solo los que hicieron conductores de esta empresa" }),
      desde: t.arg.string({ description: "Pedidos desde esta fecha ISO 8601; un día sin hora empieza a las 00:00 en Bogotá" }),
      hasta: t.arg.string({ description: "Pedidos hasta esta fecha ISO 8601; un día sin hora lo incluye entero" }),
      search: t.arg.string({ description: "El número del viaje (solo cifras), o parte de la dirección de origen o de destino" }),
      ...sortArgs("OrdenViajes", "Por qué se ordena la lista de viajes", TRIP_SORTING, {
        fecha_solicitud: "Cuándo se pidió",
        id: "Su número",
        precio_estimado: "Su precio estimado",
        distancia_km: "Su distancia",
      }),
    },
    // What the page's trips show (passenger, driver, vehicle) is read with them, not trip by trip.
    resolve: (_root, args, ctx, info) => searchTrips(ctx.deps, ctx.actor, args, queryFromInfo({ context: ctx, info, path: ["items"] })),
  }),
}));
