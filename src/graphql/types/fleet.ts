import { queryFromInfo } from "@pothos/plugin-prisma";
import { type CompanyDriver, companyDriver, recentTrips } from "../../domain/companies/fleet-driver.js";
import {
  type CONNECTION_STATES,
  companyDrivers,
  type DOCUMENT_STANDINGS,
  EXPIRY_NOTICE_DAYS,
  FLEET_SORTING,
  type FleetRow,
} from "../../domain/companies/fleet-drivers.js";
import type { REVIEW_STATES } from "../../domain/drivers/approval.js";
import type { ExpiringDocument } from "../../domain/drivers/readiness.js";
import type { TripState } from "../../domain/trip-states.js";
import type { VehicleType } from "../../domain/service-types.js";
import { builder } from "../builder.js";
import { LOOKUP, RESTRICTED } from "../errors.js";
import { DRIVER_SORT_LABELS } from "./admin.js";
import { DocumentPhoto } from "./document-history.js";
import { DriverProfile } from "./drivers.js";
import { describedEnum, ReviewStateEnum, VehicleTypeEnum } from "./enums.js";
import { CompanyIncome } from "./fleet-figures.js";
import { CompanyTrip } from "./fleet-trips.js";
import { pageArgs, pageType, sortArgs } from "./lists.js";
import { TripStateEnum } from "./trip.js";

const ConnectionEnum = describedEnum("ConexionConductor", "Dónde está ahora un conductor", {
  en_linea: "Conectado y sin viaje",
  en_viaje: "Con un viaje asignado",
  desconectado: "No está conectado",
} satisfies Record<(typeof CONNECTION_STATES)[number], string>);

const DocumentStandingEnum = describedEnum("EstadoDocumentosConductor", "Cómo están la licencia, el SOAT y la técnico-mecánica", {
  vencidos: "Alguno está vencido",
  por_vencer: `Alguno vence en los próximos ${EXPIRY_NOTICE_DAYS} días`,
  al_dia: `Ninguno vencido ni por vencer en ${EXPIRY_NOTICE_DAYS} días`,
} satisfies Record<(typeof DOCUMENT_STANDINGS)[number], string>);

const ExpiringDocumentEnum = describedEnum("DocumentoConVencimiento", "Un documento de un conductor que vence", {
  licencia: "La licencia de conducción",
  soat: "El SOAT del vehículo",
  tecnomecanica: "La revisión técnico-mecánica del vehículo",
} satisfies Record<ExpiringDocument, string>);

const DueDocument = builder.objectRef<FleetRow["documentos"][number]>("DocumentoPorVencer").implement({
  description: `Un documento de un conductor vencido o que vence en los próximos ${EXPIRY_NOTICE_DAYS} días`,
  fields: (t) => ({
    documento: t.field({ type: ExpiringDocumentEnum, description: "Cuál", resolve: (document) => document.documento }),
    vence: t.expose("vence", { type: "DateTime", description: "Cuándo vence o venció" }),
    vencido: t.exposeBoolean("vencido", { description: "Si ya venció" }),
  }),
});

const CurrentTrip = builder.objectRef<NonNullable<FleetRow["viaje_actual"]>>("ViajeActualConductor").implement({
  description: "El viaje que atiende ahora un conductor",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "El viaje; su detalle, en companyTrips" }),
    estado: t.field({ type: TripStateEnum, description: "aceptado, en_ruta o en_curso", resolve: (trip) => trip.estado as TripState }),
    origen_direccion: t.exposeString("origen_direccion", { description: "Dónde recoge al pasajero" }),
    destino_direccion: t.exposeString("destino_direccion", { description: "A dónde va" }),
    fecha_aceptacion: t.expose("fecha_aceptacion", { type: "DateTime", nullable: true, description: "Cuándo lo tomó" }),
  }),
});

type FleetVehicle = NonNullable<FleetRow["profile"]["vehiculo"]>;

const FleetVehicleRef = builder.objectRef<FleetVehicle>("VehiculoFlota").implement({
  description: "El vehículo de un conductor, como lo muestra la lista de la flota",
  fields: (t) => ({
    placa: t.exposeString("placa", { nullable: true, description: "La placa" }),
    tipo: t.field({
      type: VehicleTypeEnum,
      nullable: true,
      description: "El tipo",
      resolve: (vehicle) => vehicle.tipo as VehicleType | null,
    }),
    marca: t.exposeString("marca", { nullable: true, description: "La marca" }),
    modelo: t.exposeString("modelo", { nullable: true, description: "El modelo" }),
    color: t.exposeString("color", { nullable: true, description: "El color" }),
  }),
});

const FleetDriver = builder.objectRef<FleetRow>("ConductorEmpresa").implement({
  description: "Un conductor de una empresa, como lo ven sus gestores",
  fields: (t) => ({
    conductor_id: t.int({ description: "Su cuenta", resolve: (row) => row.profile.conductor_id }),
    nombre: t.string({ description: "Nombre", resolve: (row) => row.profile.conductor.nombre }),
    apellido: t.string({ description: "Apellido", resolve: (row) => row.profile.conductor.apellido }),
    email: t.string({ description: "Correo", resolve: (row) => row.profile.conductor.email }),
    telefono: t.string({ description: "Teléfono", resolve: (row) => row.profile.conductor.telefono }),
    estado_revision: t.field({
      type: ReviewStateEnum,
      description: "Dónde está su solicitud",
      resolve: (row) => row.profile.estado_revision as (typeof REVIEW_STATES)[number],
    }),
    aprobado: t.boolean({ description: "Si puede trabajar", resolve: (row) => row.profile.aprobado }),
    vehiculo: t.field({
      type: FleetVehicleRef,
      nullable: true,
      description: "Su vehículo, si lo registró",
      resolve: (row) => row.profile.vehiculo,
    }),
    conexion: t.field({ type: ConnectionEnum, description: "Dónde está ahora", resolve: (row) => row.conexion }),
    viaje_actual: t.field({
      type: CurrentTrip,
      nullable: true,
      description: "El viaje que atiende ahora",
      resolve: (row) => row.viaje_actual,
    }),
    calificacion: t.exposeFloat("calificacion", { description: "Promedio de sus calificaciones, de 1 a 5 (0 sin ninguna)" }),
    total_calificaciones: t.exposeInt("total_calificaciones", { description: "Cuántas calificaciones recibió" }),
    tasa_aceptacion: t.exposeFloat("tasa_aceptacion", {
      description: "% de las solicitudes que se le mostraron que aceptó, como en sus estadísticas",
    }),
    tasa_completacion: t.exposeFloat("tasa_completacion", {
      description: "% de los viajes que tomó que completó, como en sus estadísticas",
    }),
    deuda: t.exposeInt("deuda", {
      description: "Lo que debe a la plataforma, en COP: las comisiones de los viajes que cobró en efectivo, menos lo que ha pagado",
    }),
    documentos: t.field({
      type: [DueDocument],
      description: `Sus documentos vencidos o que vencen en los próximos ${EXPIRY_NOTICE_DAYS} días, el más próximo primero`,
      resolve: (row) => row.documentos,
    }),
  }),
});

const FleetDriverPage = pageType("PaginaConductoresEmpresa", FleetDriver, "Una página de los conductores de una empresa");

const Earnings = builder.objectRef<CompanyDriver["ganancias"]>("GananciasConductorEmpresa").implement({
  description: "Lo que dejaron los viajes de un conductor hechos para su empresa, el día en que se completaron (Bogotá)",
  fields: (t) => ({
    hoy: t.field({ type: CompanyIncome, description: "Hoy", resolve: (earnings) => earnings.hoy }),
    mes: t.field({ type: CompanyIncome, description: "Este mes", resolve: (earnings) => earnings.mes }),
    total: t.field({ type: CompanyIncome, description: "Desde siempre", resolve: (earnings) => earnings.total }),
  }),
});

const FleetDriverDetail = builder.objectRef<CompanyDriver>("DetalleConductorEmpresa").implement({
  description: "Un conductor de una empresa con su perfil, sus documentos, sus viajes y sus ganancias",
  fields: (t) => ({
    conductor: t.field({ type: FleetDriver, description: "Lo que muestra la lista de la flota", resolve: (driver) => driver }),
    perfil: t.field({
      type: DriverProfile,
      description: "Su perfil, con la licencia y el vehículo (fotos como enlaces firmados que vencen)",
      resolve: (driver) => driver.profile,
    }),
    fotos: t.field({
      type: [DocumentPhoto],
      description: "Las fotos que tuvo para sus documentos, las más recientes primero (enlaces firmados que vencen)",
      resolve: (driver) => driver.fotos,
    }),
    ganancias: t.field({ type: Earnings, description: "Lo que dejaron sus viajes para la empresa", resolve: (driver) => driver.ganancias }),
    viajes_recientes: t.field({
      type: [CompanyTrip],
      description: "Sus últimos 10 viajes para la empresa; los demás, con companyTrips(conductor_id)",
      resolve: (driver, _args, ctx, info) => recentTrips(ctx.deps, driver, queryFromInfo({ context: ctx, info })),
    }),
  }),
});

const companyArg = { description: "La empresa (solo administradores; un gestor ve la suya)" };

builder.queryFields((t) => ({
  companyDrivers: t.field({
    type: FleetDriverPage,
    description:
      "Los conductores de la empresa de quien llama (un gestor) o de la que un administrador indica, por páginas, filtrados, " +
      "buscados y ordenados: dónde están ahora, su viaje actual, calificación, tasas, deuda y documentos por vencer",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: {
      ...pageArgs,
      empresa_id: t.arg.int(companyArg),
      search: t.arg.string({ description: "Parte del nombre, el apellido, el correo, el teléfono o la placa" }),
      estado_revision: t.arg({ type: ReviewStateEnum, description: "Solo los de este estado de revisión" }),
      tipo_vehiculo: t.arg({ type: VehicleTypeEnum, description: "Solo los de este tipo de vehículo" }),
      conexion: t.arg({
        type: ConnectionEnum,
        description: "Solo los conectados sin viaje, los que están en un viaje o los desconectados",
      }),
      documentos: t.arg({ type: DocumentStandingEnum, description: "Solo los que tienen documentos vencidos, por vencer o al día" }),
      ...sortArgs("OrdenConductoresEmpresa", "Por qué se ordena la lista de conductores de una empresa", FLEET_SORTING, {
        ...DRIVER_SORT_LABELS,
        calificacion: "Su calificación promedio",
      }),
    },
    resolve: (_root, args, ctx) => companyDrivers(ctx.deps, ctx.actor, args),
  }),
  companyDriver: t.field({
    type: FleetDriverDetail,
    description: "Un conductor de la empresa de quien llama (un gestor) o de la que un administrador indica, con todo su detalle",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: {
      conductor_id: t.arg.int({ required: true, description: "El conductor" }),
      empresa_id: t.arg.int(companyArg),
    },
    resolve: (_root, args, ctx) => companyDriver(ctx.deps, ctx.actor, args),
  }),
}));
