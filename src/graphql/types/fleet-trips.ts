import { queryFromInfo } from "@pothos/plugin-prisma";
import { firstName } from "../../domain/accounts/names.js";
import { companyTrips } from "../../domain/companies/fleet-trips.js";
import type { PaymentMethod } from "../../domain/payment-methods.js";
import type { ServiceType } from "../../domain/service-types.js";
import type { TripState } from "../../domain/trip-states.js";
import { builder } from "../builder.js";
import { LOOKUP, RESTRICTED } from "../errors.js";
import { pageType } from "./lists.js";
import { tripListArgs } from "./operations.js";
import { destination, origin, PaymentMethodEnum, ServiceTypeEnum, TripPlaceRef, TripStateEnum } from "./trip.js";

/** A trip as a company's managers see it: everything about its driver and its money, of its passenger only a first name. */
export const CompanyTrip = builder.prismaObject("Trip", {
  variant: "ViajeEmpresa",
  description: "Un viaje hecho para una empresa, como lo ven sus gestores: del pasajero, solo su primer nombre",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "El viaje" }),
    estado: t.field({ type: TripStateEnum, description: "Dónde está", resolve: (trip) => trip.estado as TripState }),
    tipo_servicio: t.field({
      type: ServiceTypeEnum,
      description: "El servicio pedido",
      resolve: (trip) => trip.tipo_servicio as ServiceType,
    }),
    metodo_pago: t.field({ type: PaymentMethodEnum, description: "Cómo se paga", resolve: (trip) => trip.metodo_pago as PaymentMethod }),
    origen: t.field({ type: TripPlaceRef, description: "Dónde se recogió al pasajero", resolve: origin }),
    destino: t.field({ type: TripPlaceRef, description: "A dónde iba", resolve: destination }),
    conductor_id: t.exposeInt("conductor_id", { nullable: true, description: "El conductor" }),
    conductor_nombre: t.string({
      nullable: true,
      description: "El nombre y apellido del conductor",
      select: { conductor: { select: { nombre: true, apellido: true } } },
      resolve: (trip) => (trip.conductor ? `${trip.conductor.nombre} ${trip.conductor.apellido}`.trim() : null),
    }),
    pasajero_nombre: t.string({
      nullable: true,
      description: "El primer nombre del pasajero; nada más de su cuenta",
      select: { usuario: { select: { nombre: true } } },
      resolve: (trip) => firstName(trip.usuario?.nombre),
    }),
    precio_estimado: t.exposeInt("precio_estimado", { description: "COP" }),
    precio_final: t.exposeInt("precio_final", { nullable: true, description: "COP, una vez completado" }),
    comision_plataforma: t.exposeInt("comision_plataforma", {
      nullable: true,
      description: "La comisión de la plataforma, en COP, una vez completado; incluye la parte de la empresa",
    }),
    comision_metodo_pago: t.exposeInt("comision_metodo_pago", {
      nullable: true,
      description: "La comisión por el método de pago (si lo cobra la plataforma), en COP, una vez completado",
    }),
    porcentaje_empresa: t.exposeFloat("porcentaje_empresa", {
      nullable: true,
      description: "La parte (%) de la comisión de la plataforma que le toca a la empresa, la vigente cuando se pidió",
    }),
    comision_empresa: t.exposeInt("comision_empresa", {
      nullable: true,
      description: "La parte de la empresa, en COP, una vez completado",
    }),
    ganancia_conductor: t.exposeInt("ganancia_conductor", {
      nullable: true,
      description: "Lo que ganó el conductor, en COP, una vez completado (precio final menos comisiones)",
    }),
    distancia_km: t.exposeFloat("distancia_km", { description: "km por carretera; la real, una vez completado si el conductor la dio" }),
    duracion_estimada_minutos: t.exposeInt("duracion_estimada_minutos", { description: "Minutos estimados de recorrido" }),
    fecha_solicitud: t.expose("fecha_solicitud", { type: "DateTime", description: "Cuándo se pidió" }),
    fecha_aceptacion: t.expose("fecha_aceptacion", { type: "DateTime", nullable: true, description: "Cuándo lo tomó el conductor" }),
    fecha_inicio: t.expose("fecha_inicio", { type: "DateTime", nullable: true, description: "Cuándo subió el pasajero" }),
    fecha_fin: t.expose("fecha_fin", { type: "DateTime", nullable: true, description: "Cuándo se completó" }),
    fecha_cancelacion: t.expose("fecha_cancelacion", { type: "DateTime", nullable: true, description: "Cuándo se canceló" }),
    motivo_cancelacion: t.exposeString("motivo_cancelacion", { nullable: true, description: "Por qué se canceló" }),
    cancelado_por: t.exposeString("cancelado_por", { nullable: true, description: "Quién lo canceló: pasajero, conductor o admin" }),
    calificacion_conductor: t.exposeInt("calificacion_conductor", {
      nullable: true,
      description: "La que el pasajero dio al conductor, 1 a 5",
    }),
    comentario_conductor: t.exposeString("comentario_conductor", {
      nullable: true,
      description: "El comentario del pasajero sobre el conductor",
    }),
  }),
});

const CompanyTripPage = pageType("PaginaViajesEmpresa", CompanyTrip, "Una página de los viajes de una empresa");

builder.queryFields((t) => ({
  companyTrips: t.field({
    type: CompanyTripPage,
    description:
      "Los viajes hechos para la empresa de quien llama (un gestor) o la que un administrador indica: los de sus conductores, " +
      "con los filtros y el orden de la lista de viajes; del pasajero, solo su primer nombre",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: {
      ...tripListArgs,
      empresa_id: t.arg.int({ description: "La empresa (solo administradores; un gestor ve la suya)" }),
    },
    // The page's drivers and passengers are read with its trips, not trip by trip.
    resolve: (_root, args, ctx, info) => companyTrips(ctx.deps, ctx.actor, args, queryFromInfo({ context: ctx, info, path: ["items"] })),
  }),
}));
