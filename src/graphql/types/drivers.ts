import { approveDriver, completeness, pendingDrivers, rejectDriver, submitForApproval } from "../../domain/drivers/approval.js";
import { expiredDocuments } from "../../domain/drivers/readiness.js";
import { storeDocument } from "../../domain/drivers/documents.js";
import { earnings } from "../../domain/drivers/earnings.js";
import { driverProfile, updateDriverProfile, updateLicense, updateVehicle } from "../../domain/drivers/profile.js";
import { LICENCE_FIELDS, VEHICLE_FIELDS, type FieldKind } from "../../domain/drivers/fields.js";
import { statistics } from "../../domain/drivers/statistics.js";
import { ConflictError, InvalidStateError, NotFoundError, PayloadTooLargeError } from "../../domain/errors.js";
import { builder } from "../builder.js";
import { CALLER, LOOKUP, RESTRICTED, RESTRICTED_TRUSTING_LEGACY } from "../errors.js";
import type { Context } from "../context.js";
import { User } from "./accounts.js";

/** A document photo as responses show it: a signed link that expires, fresh in every response. */
const signed = (value: string | null, ctx: Context) => (value ? ctx.deps.uploads.link(value) : null);

/** A licence or vehicle field as responses show it, by its kind (src/domain/drivers/fields.ts). */
// biome-ignore lint/suspicious/noExplicitAny: the field builder is typed per object, and this serves two
function exposeByKind(t: any, name: string, kind: FieldKind) {
  if (kind === "photo")
    return t.string({
      nullable: true,
      resolve: (row: Record<string, string | null>, _args: unknown, ctx: Context) => signed(row[name] ?? null, ctx),
    });
  if (kind === "date") return t.expose(name, { type: "DateTime", nullable: true });
  return kind === "text" ? t.exposeString(name, { nullable: true }) : t.exposeInt(name, { nullable: true });
}

/** The same fields as input: dates travel as ISO 8601 text, ids and numbers as Int. */
// biome-ignore lint/suspicious/noExplicitAny: as above, for two input types
function inputByKind(t: any, kind: FieldKind) {
  if (kind === "date") return t.string({ description: "ISO 8601; sin zona es hora de Colombia" });
  return kind === "int" || kind === "id" ? t.int() : t.string();
}

/** Fields built from a table; TypeScript cannot know them, so callers present them as an empty field map. */
const fieldsBy = (fields: Record<string, FieldKind>, build: (name: string, kind: FieldKind) => unknown) =>
  Object.fromEntries(Object.entries(fields).map(([name, kind]) => [name, build(name, kind)]));

const License = builder.prismaObject("License", {
  name: "Licencia",
  description: "Categoría (tipo): A1, A2, B1, B2, B3, C1, C2, C3",
  fields: (t) => fieldsBy(LICENCE_FIELDS, (name, kind) => exposeByKind(t, name, kind)) as Record<string, never>,
});

const { empresa_id: _company, ...VEHICLE_OWN_FIELDS } = VEHICLE_FIELDS;

export const Vehicle = builder.prismaObject("Vehicle", {
  name: "Vehiculo",
  description: "tipo: moto, auto o mototaxi",
  fields: (t) => ({
    ...(fieldsBy(VEHICLE_OWN_FIELDS, (name, kind) => exposeByKind(t, name, kind)) as Record<string, never>),
    // Kept on the driver's account, not on the vehicle.
    empresa_id: t.int({
      nullable: true,
      description: "La empresa del conductor",
      select: { perfil: { select: { conductor: { select: { empresa_id: true } } } } },
      resolve: (vehicle) => vehicle.perfil.conductor.empresa_id,
    }),
  }),
});

const Completeness = builder.objectRef<ReturnType<typeof completeness>>("Completitud").implement({
  fields: (t) => ({
    requeridos: t.exposeInt("requeridos", { description: "Campos que necesita una solicitud completa" }),
    completos: t.exposeInt("completos"),
    faltantes: t.exposeStringList("faltantes", { description: "Los que faltan, como parte.campo" }),
    porcentaje: t.exposeInt("porcentaje"),
  }),
});

export const DriverProfile = builder.prismaObject("DriverProfile", {
  name: "PerfilConductor",
  fields: (t) => ({
    id: t.exposeInt("id"),
    conductor_id: t.exposeInt("conductor_id"),
    nombre_completo: t.exposeString("nombre_completo", { nullable: true }),
    telefono: t.exposeString("telefono", { nullable: true }),
    direccion: t.exposeString("direccion", { nullable: true }),
    email: t.string({ select: { conductor: { select: { email: true } } }, resolve: (p) => p.conductor.email }),
    aprobado: t.exposeBoolean("aprobado"),
    estado_revision: t.exposeString("estado_revision", { description: "pendiente, en_revision, aprobado o rechazado" }),
    motivo_rechazo: t.exposeString("motivo_rechazo", { nullable: true }),
    fecha_solicitud: t.expose("fecha_solicitud", { type: "DateTime", nullable: true, description: "Cuándo se envió a revisión" }),
    fecha_aprobacion: t.expose("fecha_aprobacion", { type: "DateTime", nullable: true }),
    fecha_creacion: t.expose("fecha_creacion", { type: "DateTime" }),
    fecha_actualizacion: t.expose("fecha_actualizacion", { type: "DateTime" }),
    licencia: t.relation("licencia", { nullable: true }),
    vehiculo: t.relation("vehiculo", { nullable: true }),
    usuario: t.relation("conductor", { type: User }),
    completitud: t.field({
      type: Completeness,
      description: "Qué le falta a la solicitud para enviarla a revisión",
      select: { nombre_completo: true, telefono: true, direccion: true, licencia: true, vehiculo: true },
      resolve: (profile) => completeness(profile),
    }),
    documentos_vencidos: t.stringList({
      description: "Documentos cuya fecha de vencimiento ya pasó",
      select: { licencia: true, vehiculo: true },
      resolve: (profile, _args, ctx) => expiredDocuments(profile, ctx.deps.clock.now()),
    }),
  }),
});

type EarningsView = Awaited<ReturnType<typeof earnings>>;

const EarningsDay = builder.objectRef<EarningsView["desglose_diario"][number]>("GananciaDia").implement({
  description: "Las ganancias de un día (hora de Bogotá) con viajes completados",
  fields: (t) => ({
    fecha: t.exposeString("fecha", { description: "AAAA-MM-DD" }),
    ganancias: t.exposeInt("ganancias", { description: "COP netos ese día" }),
    viajes: t.exposeInt("viajes", { description: "Viajes completados ese día" }),
  }),
});

const Earnings = builder.objectRef<EarningsView>("Ganancias").implement({
  description: "Ganancias netas de la comisión de la plataforma, en COP",
  fields: (t) => ({
    periodo: t.exposeString("periodo"),
    total_viajes: t.exposeInt("total_viajes"),
    ganancia_total: t.exposeFloat("ganancia_total"),
    ganancia_promedio: t.exposeFloat("ganancia_promedio"),
    fecha_inicio: t.expose("fecha_inicio", { type: "DateTime" }),
    fecha_fin: t.expose("fecha_fin", { type: "DateTime" }),
    desglose_diario: t.field({ type: [EarningsDay], description: "Día por día, los días con viajes", resolve: (e) => e.desglose_diario }),
  }),
});

type StatisticsView = Awaited<ReturnType<typeof statistics>>;

const Statistics = builder.objectRef<StatisticsView>("EstadisticasConductor").implement({
  fields: (t) => ({
    total_viajes: t.exposeInt("total_viajes"),
    viajes_hoy: t.exposeInt("viajes_hoy"),
    viajes_semana: t.exposeInt("viajes_semana"),
    viajes_mes: t.exposeInt("viajes_mes"),
    calificacion_promedio: t.exposeFloat("calificacion_promedio"),
    total_calificaciones: t.exposeInt("total_calificaciones"),
    tasa_aceptacion: t.exposeFloat("tasa_aceptacion", { description: "% de solicitudes mostradas que aceptó" }),
    tasa_completacion: t.exposeFloat("tasa_completacion", { description: "% de viajes aceptados que completó" }),
    tasa_cancelacion: t.exposeFloat("tasa_cancelacion", { description: "% de viajes aceptados que se cancelaron" }),
    tiempo_promedio_respuesta: t.exposeFloat("tiempo_promedio_respuesta", { description: "Segundos" }),
    distancia_total_km: t.exposeFloat("distancia_total_km"),
    horas_activo: t.exposeFloat("horas_activo", { description: "En línea, en camino o con pasajero" }),
    horas_hoy: t.exposeFloat("horas_hoy", { description: "Horas activo desde la medianoche (Bogotá)" }),
    ganancias_hoy: t.exposeFloat("ganancias_hoy", { description: "Ganancia neta de los viajes completados hoy, en COP" }),
  }),
});

const UploadedDocument = builder.objectRef<{ tipo_documento: string; url: string }>("DocumentoSubido").implement({
  fields: (t) => ({
    tipo_documento: t.exposeString("tipo_documento"),
    url: t.string({
      description: "Enlace firmado que vence; guárdalo con updateLicense o updateVehicle",
      resolve: (doc, _args, ctx) => ctx.deps.uploads.link(doc.url),
    }),
  }),
});

const DriverProfileInput = builder.inputType("DriverProfileInput", {
  fields: (t) => ({ nombre_completo: t.string(), telefono: t.string(), direccion: t.string() }),
});

const VehicleInput = builder.inputType("VehicleInput", {
  fields: (t) => fieldsBy(VEHICLE_FIELDS, (_name, kind) => inputByKind(t, kind)) as Record<string, never>,
});

const LicenseInput = builder.inputType("LicenseInput", {
  fields: (t) => fieldsBy(LICENCE_FIELDS, (_name, kind) => inputByKind(t, kind)) as Record<string, never>,
});

const aboutDriver = builder.args((t) => ({
  conductor_id: t.int({ description: "Otro conductor (solo administradores); por defecto quien llama" }),
}));

builder.queryFields((t) => ({
  driverProfile: t.field({
    type: DriverProfile,
    errors: { types: [...RESTRICTED, NotFoundError] },
    args: aboutDriver,
    resolve: (_root, args, ctx) => driverProfile(ctx.deps, ctx.actor, args.conductor_id),
  }),
  verificationStatus: t.field({
    type: DriverProfile,
    description: "El estado de revisión del conductor que llama",
    errors: { types: [...CALLER, NotFoundError] },
    resolve: (_root, _args, ctx) => driverProfile(ctx.deps, ctx.actor),
  }),
  earnings: t.field({
    type: Earnings,
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: {
      ...aboutDriver,
      periodo: t.arg.string({ description: "hoy, semana, mes o total (hora de Bogotá); sin él, los días de desde a hasta" }),
      desde: t.arg.string({ description: "Primer día (AAAA-MM-DD) de un periodo a la medida" }),
      hasta: t.arg.string({ description: "Último día (AAAA-MM-DD), incluido" }),
    },
    resolve: (_root, { conductor_id, ...query }, ctx) => earnings(ctx.deps, ctx.actor, conductor_id, query),
  }),
  driverStatistics: t.field({
    type: Statistics,
    errors: { types: [...RESTRICTED, NotFoundError] },
    args: aboutDriver,
    resolve: (_root, args, ctx) => statistics(ctx.deps, ctx.actor, args.conductor_id),
  }),
  pendingDrivers: t.field({
    type: [DriverProfile],
    description: "Solicitudes en revisión, las más antiguas primero (solo administradores)",
    errors: { types: RESTRICTED },
    resolve: (_root, _args, ctx) => pendingDrivers(ctx.deps, ctx.actor),
  }),
}));

const Review = builder.objectRef<Awaited<ReturnType<typeof submitForApproval>>>("ResultadoRevision").implement({
  description: "La revisión de un conductor tras un envío a revisión o una decisión de un administrador",
  fields: (t) => ({
    perfil: t.field({ type: DriverProfile, description: "El perfil después", resolve: (review) => review.perfil }),
    repetido: t.exposeBoolean("repetido", {
      description: "Ya era así (en revisión o aprobado al enviar; aprobado, o rechazado con ese motivo, al decidir): no cambió nada",
    }),
  }),
});

builder.mutationFields((t) => ({
  updateDriverProfile: t.field({
    type: DriverProfile,
    errors: { types: [...CALLER, ...LOOKUP] },
    args: { input: t.arg({ type: DriverProfileInput, required: true }) },
    resolve: (_root, { input }, ctx) => updateDriverProfile(ctx.deps, ctx.actor, input),
  }),
  updateVehicle: t.field({
    type: Vehicle,
    description: "Cambia los campos enviados del vehículo de quien llama; la placa se guarda en mayúsculas, solo letras y números",
    errors: { types: [...CALLER, ...LOOKUP, ConflictError] },
    args: { input: t.arg({ type: VehicleInput, required: true }) },
    resolve: (_root, { input }, ctx) => updateVehicle(ctx.deps, ctx.actor, input),
  }),
  updateLicense: t.field({
    type: License,
    errors: { types: [...CALLER, ...LOOKUP, ConflictError] },
    args: { input: t.arg({ type: LicenseInput, required: true }) },
    resolve: (_root, { input }, ctx) => updateLicense(ctx.deps, ctx.actor, input),
  }),
  submitForApproval: t.field({
    type: Review,
    description: "Envía el perfil completo (datos, licencia, vehículo con documentos y fotos) a revisión",
    errors: { types: [...CALLER, ...LOOKUP] },
    resolve: (_root, _args, ctx) => submitForApproval(ctx.deps, ctx.actor),
  }),
  uploadDocument: t.field({
    type: UploadedDocument,
    description: "Sube la foto (JPG o PNG) de un documento; guarda luego su URL con updateLicense o updateVehicle",
    errors: { types: [...CALLER, ...LOOKUP, PayloadTooLargeError] },
    args: {
      tipo_documento: t.arg.string({
        required: true,
        description: "licencia_frente, licencia_reverso, vehiculo, tarjeta_propiedad, soat o tecnomecanica",
      }),
      documento: t.arg({ type: "File", required: true }),
    },
    resolve: (_root, args, ctx) => storeDocument(ctx.deps, ctx.actor, args),
  }),
  approveDriver: t.field({
    type: Review,
    errors: { types: [...RESTRICTED_TRUSTING_LEGACY, ...LOOKUP, InvalidStateError] },
    args: { conductor_id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => approveDriver(ctx.deps, ctx.actor, args.conductor_id),
  }),
  rejectDriver: t.field({
    type: Review,
    errors: { types: [...RESTRICTED_TRUSTING_LEGACY, ...LOOKUP, InvalidStateError] },
    args: { conductor_id: t.arg.int({ required: true }), motivo: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => rejectDriver(ctx.deps, ctx.actor, args),
  }),
}));
