import {
  approveDriver,
  completeness,
  pendingDrivers,
  rejectDriver,
  type REVIEW_STATES,
  submitForApproval,
} from "../../domain/drivers/approval.js";
import { expiredDocuments } from "../../domain/drivers/readiness.js";
import { type DOCUMENT_TYPES, storeDocument } from "../../domain/drivers/documents.js";
import { driverProfile, updateDriverProfile, updateLicense, updateVehicle } from "../../domain/drivers/profile.js";
import { LICENCE_FIELDS, VEHICLE_FIELDS, type FieldKind, type LicenceField, type VehicleField } from "../../domain/drivers/fields.js";
import { ALL_CATEGORIES, licenceAllows } from "../../domain/drivers/licence-rules.js";
import { VEHICLE_TYPES } from "../../domain/service-types.js";
import { ConflictError, InvalidStateError, NotFoundError, PayloadTooLargeError } from "../../domain/errors.js";
import { builder } from "../builder.js";
import { CALLER, LOOKUP, RESTRICTED, RESTRICTED_TRUSTING_LEGACY } from "../errors.js";
import type { Context } from "../context.js";
import { User } from "./accounts.js";
import { CompanySummary } from "./company-summary.js";
import { describedEnum, DocumentTypeEnum, ReviewStateEnum, VehicleTypeEnum } from "./enums.js";

type ReviewState = (typeof REVIEW_STATES)[number];
type DocumentType = (typeof DOCUMENT_TYPES)[number];

const LicenceCategoryEnum = describedEnum(
  "CategoriaLicencia",
  "Una categoría de la licencia de conducción",
  Object.fromEntries(
    ALL_CATEGORIES.map((category) => [
      category,
      `Permite conducir: ${VEHICLE_TYPES.filter((vehicle) => licenceAllows(category, vehicle)).join(", ")}`,
    ]),
  ),
);

/** What each licence and vehicle field is; the GraphQL types and inputs are built from these tables and fields.ts. */
const LICENCE_DESCRIPTIONS: Record<LicenceField, string> = {
  numero: "El número de la licencia",
  tipo: "Su categoría",
  fecha_emision: "Cuándo se expidió",
  fecha_expiracion: "Cuándo vence",
  imagen_frente: "Foto del frente",
  imagen_reverso: "Foto del reverso",
};
const VEHICLE_DESCRIPTIONS: Record<VehicleField, string> = {
  marca: "La marca",
  modelo: "El modelo",
  anio: "El año del modelo",
  placa: "La placa, en mayúsculas, solo letras y números",
  color: "El color",
  capacidad_pasajeros: "Cuántos pasajeros lleva (1 a 8)",
  tipo: "El tipo de vehículo, que decide qué viajes se le ofrecen",
  empresa_id: "La empresa del conductor",
  soat_numero: "El número de la póliza SOAT",
  soat_vencimiento: "Cuándo vence el SOAT",
  tecnomecanica_numero: "El número del certificado de revisión técnico-mecánica",
  tecnomecanica_vencimiento: "Cuándo vence la revisión técnico-mecánica",
  tarjeta_propiedad_numero: "El número de la tarjeta de propiedad",
  foto_vehiculo: "Foto del vehículo",
  foto_tarjeta_propiedad: "Foto de la tarjeta de propiedad",
  foto_soat: "Foto del SOAT",
  foto_tecnomecanica: "Foto de la revisión técnico-mecánica",
};

/** The table fields whose values are fixed: their enums. */
const LICENCE_ENUMS = { tipo: LicenceCategoryEnum };
const VEHICLE_ENUMS = { tipo: VehicleTypeEnum };

/** A document photo as responses show it: a signed link that expires, fresh in every response. */
const signed = (value: string | null, ctx: Context) => (value ? ctx.deps.uploads.link(value) : null);

interface TableField {
  name: string;
  kind: FieldKind;
  description: string;
  enumType?: unknown;
}

/** A licence or vehicle field as responses show it, by its kind (src/domain/drivers/fields.ts). */
// biome-ignore lint/suspicious/noExplicitAny: the field builder is typed per object, and this serves two
function exposeByKind(t: any, { name, kind, description, enumType }: TableField) {
  if (enumType) return t.field({ type: enumType, nullable: true, description, resolve: (row: Record<string, unknown>) => row[name] });
  if (kind === "photo")
    return t.string({
      nullable: true,
      description: `${description}: enlace firmado que vence`,
      resolve: (row: Record<string, string | null>, _args: unknown, ctx: Context) => signed(row[name] ?? null, ctx),
    });
  if (kind === "date") return t.expose(name, { type: "DateTime", nullable: true, description });
  return kind === "text" ? t.exposeString(name, { nullable: true, description }) : t.exposeInt(name, { nullable: true, description });
}

/** The same fields as input: dates travel as ISO 8601 text, ids and numbers as Int. */
// biome-ignore lint/suspicious/noExplicitAny: as above, for two input types
function inputByKind(t: any, { kind, description, enumType }: TableField) {
  if (enumType) return t.field({ type: enumType, description });
  if (kind === "date") return t.string({ description: `${description}: ISO 8601; sin zona es hora de Colombia` });
  if (kind === "photo") return t.string({ description: `${description}: el enlace que respondió uploadDocument` });
  return kind === "int" || kind === "id" ? t.int({ description }) : t.string({ description });
}

/** Fields built from a table; TypeScript cannot know them, so callers present them as an empty field map. */
const fieldsBy = <Name extends string>(
  fields: Record<Name, FieldKind>,
  descriptions: Record<NoInfer<Name>, string>,
  enums: Partial<Record<NoInfer<Name>, unknown>>,
  build: (field: TableField) => unknown,
) =>
  Object.fromEntries(
    (Object.entries(fields) as Array<[Name, FieldKind]>).map(([name, kind]) => [
      name,
      build({ name, kind, description: descriptions[name], enumType: enums[name] }),
    ]),
  ) as Record<string, never>;

const License = builder.prismaObject("License", {
  name: "Licencia",
  description: "La licencia de conducción de un conductor",
  fields: (t) => fieldsBy(LICENCE_FIELDS, LICENCE_DESCRIPTIONS, LICENCE_ENUMS, (field) => exposeByKind(t, field)),
});

const { empresa_id: _company, ...VEHICLE_OWN_FIELDS } = VEHICLE_FIELDS;

export const Vehicle = builder.prismaObject("Vehicle", {
  name: "Vehiculo",
  description: "El vehículo de un conductor y sus documentos",
  fields: (t) => ({
    ...fieldsBy(VEHICLE_OWN_FIELDS, VEHICLE_DESCRIPTIONS, VEHICLE_ENUMS, (field) => exposeByKind(t, field)),
    // Kept on the driver's account, not on the vehicle.
    empresa_id: t.int({
      nullable: true,
      description: "La empresa del conductor",
      select: { perfil: { select: { conductor: { select: { empresa_id: true } } } } },
      resolve: (vehicle) => vehicle.perfil.conductor.empresa_id,
    }),
    empresa_solicitada: t.field({
      type: CompanySummary,
      nullable: true,
      description: "La empresa a la que el conductor pidió unirse y que aún no responde",
      select: {
        perfil: {
          select: { conductor: { select: { afiliaciones: { where: { estado: "solicitada" }, take: 1, select: { empresa: true } } } } },
        },
      },
      resolve: (vehicle) => vehicle.perfil.conductor.afiliaciones[0]?.empresa ?? null,
    }),
  }),
});

const Completeness = builder.objectRef<ReturnType<typeof completeness>>("Completitud").implement({
  description: "Qué tanto de su solicitud ha llenado un conductor",
  fields: (t) => ({
    requeridos: t.exposeInt("requeridos", { description: "Campos que necesita una solicitud completa" }),
    completos: t.exposeInt("completos", { description: "Los que ya tiene" }),
    faltantes: t.exposeStringList("faltantes", { description: "Los que faltan, como parte.campo" }),
    porcentaje: t.exposeInt("porcentaje", { description: "Los que tiene, en % de los requeridos" }),
  }),
});

export const DriverProfile = builder.prismaObject("DriverProfile", {
  name: "PerfilConductor",
  description: "Un conductor: sus datos, su solicitud, su licencia y su vehículo",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "El perfil" }),
    conductor_id: t.exposeInt("conductor_id", { description: "Su cuenta de usuario" }),
    nombre_completo: t.exposeString("nombre_completo", { nullable: true, description: "Su nombre completo, como lo dio en la solicitud" }),
    telefono: t.exposeString("telefono", { nullable: true, description: "Su teléfono, como lo dio en la solicitud" }),
    direccion: t.exposeString("direccion", { nullable: true, description: "Su dirección" }),
    email: t.string({
      description: "El correo de su cuenta",
      select: { conductor: { select: { email: true } } },
      resolve: (p) => p.conductor.email,
    }),
    aprobado: t.exposeBoolean("aprobado", { description: "Si puede trabajar" }),
    estado_revision: t.field({
      type: ReviewStateEnum,
      description: "Dónde está su solicitud",
      resolve: (profile) => profile.estado_revision as ReviewState,
    }),
    motivo_rechazo: t.exposeString("motivo_rechazo", { nullable: true, description: "Por qué se rechazó, si se rechazó" }),
    fecha_solicitud: t.expose("fecha_solicitud", { type: "DateTime", nullable: true, description: "Cuándo se envió a revisión" }),
    fecha_aprobacion: t.expose("fecha_aprobacion", { type: "DateTime", nullable: true, description: "Cuándo se aprobó" }),
    fecha_creacion: t.expose("fecha_creacion", { type: "DateTime", description: "Cuándo se creó el perfil" }),
    fecha_actualizacion: t.expose("fecha_actualizacion", { type: "DateTime", description: "Cuándo cambió por última vez" }),
    licencia: t.relation("licencia", { nullable: true, description: "Su licencia, si la registró" }),
    vehiculo: t.relation("vehiculo", { nullable: true, description: "Su vehículo, si lo registró" }),
    usuario: t.relation("conductor", { type: User, description: "Su cuenta" }),
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

const UploadedDocument = builder.objectRef<{ tipo_documento: DocumentType; url: string }>("DocumentoSubido").implement({
  description: "La foto de un documento, recién subida",
  fields: (t) => ({
    tipo_documento: t.expose("tipo_documento", { type: DocumentTypeEnum, description: "De qué documento es" }),
    url: t.string({
      description: "Enlace firmado que vence; guárdalo con updateLicense o updateVehicle",
      resolve: (doc, _args, ctx) => ctx.deps.uploads.link(doc.url),
    }),
  }),
});

const DriverProfileInput = builder.inputType("DriverProfileInput", {
  description: "Los datos personales de la solicitud; los que no se envían no cambian",
  fields: (t) => ({
    nombre_completo: t.string({ description: "Nombre completo" }),
    telefono: t.string({ description: "Teléfono (7 a 15 dígitos)" }),
    direccion: t.string({ description: "Dirección" }),
  }),
});

const VehicleInput = builder.inputType("VehicleInput", {
  description: "Los campos del vehículo que cambian; los que no se envían no cambian",
  fields: (t) => fieldsBy(VEHICLE_FIELDS, VEHICLE_DESCRIPTIONS, VEHICLE_ENUMS, (field) => inputByKind(t, field)),
});

const LicenseInput = builder.inputType("LicenseInput", {
  description: "Los campos de la licencia que cambian; los que no se envían no cambian",
  fields: (t) => fieldsBy(LICENCE_FIELDS, LICENCE_DESCRIPTIONS, LICENCE_ENUMS, (field) => inputByKind(t, field)),
});

export const aboutDriver = builder.args((t) => ({
  conductor_id: t.int({ description: "Otro conductor (solo administradores); por defecto quien llama" }),
}));

builder.queryFields((t) => ({
  driverProfile: t.field({
    type: DriverProfile,
    description: "El perfil de conductor de quien llama, o de otro conductor para un administrador",
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
  pendingDrivers: t.field({
    type: [DriverProfile],
    description: "Solicitudes en revisión, las más antiguas primero (solo administradores)",
    errors: { types: RESTRICTED, dataField: { description: "Las solicitudes" } },
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
    description: "Cambia los datos personales enviados del conductor que llama",
    errors: { types: [...CALLER, ...LOOKUP] },
    args: { input: t.arg({ type: DriverProfileInput, required: true, description: "Lo que cambia" }) },
    resolve: (_root, { input }, ctx) => updateDriverProfile(ctx.deps, ctx.actor, input),
  }),
  updateVehicle: t.field({
    type: Vehicle,
    description: "Cambia los campos enviados del vehículo de quien llama; la placa se guarda en mayúsculas, solo letras y números",
    errors: { types: [...CALLER, ...LOOKUP, ConflictError] },
    args: { input: t.arg({ type: VehicleInput, required: true, description: "Lo que cambia" }) },
    resolve: (_root, { input }, ctx) => updateVehicle(ctx.deps, ctx.actor, input),
  }),
  updateLicense: t.field({
    type: License,
    description: "Cambia los campos enviados de la licencia de quien llama; las fechas se revisan con las guardadas",
    errors: { types: [...CALLER, ...LOOKUP, ConflictError] },
    args: { input: t.arg({ type: LicenseInput, required: true, description: "Lo que cambia" }) },
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
      tipo_documento: t.arg({ type: DocumentTypeEnum, required: true, description: "De qué documento es la foto" }),
      documento: t.arg({ type: "File", required: true, description: "La foto, JPG o PNG (parte multipart)" }),
    },
    resolve: (_root, args, ctx) => storeDocument(ctx.deps, ctx.actor, args),
  }),
  approveDriver: t.field({
    type: Review,
    description: "Un administrador aprueba una solicitud en revisión; se le notifica al conductor (auditado)",
    errors: { types: [...RESTRICTED_TRUSTING_LEGACY, ...LOOKUP, InvalidStateError] },
    args: { conductor_id: t.arg.int({ required: true, description: "El conductor" }) },
    resolve: (_root, args, ctx) => approveDriver(ctx.deps, ctx.actor, args.conductor_id),
  }),
  rejectDriver: t.field({
    type: Review,
    description: "Un administrador rechaza una solicitud en revisión con un motivo, que se le notifica al conductor (auditado)",
    errors: { types: [...RESTRICTED_TRUSTING_LEGACY, ...LOOKUP, InvalidStateError] },
    args: {
      conductor_id: t.arg.int({ required: true, description: "El conductor" }),
      motivo: t.arg.string({ required: true, description: "Por qué; el conductor lo ve" }),
    },
    resolve: (_root, args, ctx) => rejectDriver(ctx.deps, ctx.actor, args),
  }),
}));
