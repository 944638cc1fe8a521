import { z } from "zod";
import { DOCUMENT_TYPES } from "../../../domain/drivers/documents.js";
import { LICENCE_FIELDS, VEHICLE_FIELDS, type FieldKind } from "../../../domain/drivers/fields.js";
import { licenceCategory } from "../../../domain/drivers/profile.js";
import { VEHICLE_TYPES } from "../../../domain/service-types.js";
import { optional } from "../../../domain/validation.js";
import {
  DOCUMENT_TYPE_SPELLINGS,
  VEHICLE_TYPE_SPELLINGS,
  legacyChoice,
  legacyFile,
  legacyId,
  legacyInt,
  legacyText,
} from "../../legacy-fields.js";
import {
  FLAT_DRIVER,
  LICENCE_SPELLINGS,
  PROFILE,
  PROFILE_FRAGMENT,
  VEHICLE_SPELLINGS,
  flatDriver,
  legacyProfile,
} from "../../driver-profile.js";
import { appVehicleType } from "../../app-vocabulary.js";
import { DRIVER_STATE, LICENCE, VEHICLE as VEHICLE_SCHEMA, selection } from "../../resources.js";
import { defineRoute, operation, type LegacyRoute } from "../../route.js";
import { driver, driverRead } from "./calls.js";

const LICENSE = selection(LICENCE);
const VEHICLE = selection(VEHICLE_SCHEMA);

/** The legacy input type of a licence or vehicle field. */
const LEGACY_BY_KIND: Record<FieldKind, () => z.ZodType> = {
  text: legacyText,
  date: legacyText,
  photo: legacyText,
  int: legacyInt,
  id: legacyId,
};
const legacyShape = (fields: Record<string, FieldKind>) =>
  Object.fromEntries(Object.entries(fields).map(([name, kind]) => [name, optional(LEGACY_BY_KIND[kind]())]));

/** The driver as pingo's home screen reads it (ConductorModel.fromJson): one flat record with the account's own data. */
const APP_DRIVER = FLAT_DRIVER.extend({
  id: z.int(),
  nombre: z.string(),
  apellido: z.string(),
  telefono: z.string(),
  foto_perfil: z.null(),
  vehiculo_tipo: z.string().nullable(),
  disponible: z.union([z.literal(0), z.literal(1)]),
  latitud: z.number().nullable(),
  longitud: z.number().nullable(),
});

/** What the driver's screens read of them: home, profile, review. */
export const profileReadRoutes: LegacyRoute[] = [
  driverRead(
    {
      path: "/conductor/get_info.php",
      summary: "El conductor para su pantalla de inicio: cuenta, licencia, vehículo, calificación, disponibilidad y posición",
      output: z.object({ conductor: APP_DRIVER, ubicacion: DRIVER_STATE.nullable() }),
    },
    `query Info {
      driverProfile {
        ...LegacyError
        ...LegacyDriverProfile
        ... on PerfilConductor {
          usuario {
            nombre apellido email telefono es_activo es_verificado calificacion total_calificaciones viajes_completados_como_conductor
          }
          estado_actual { ${selection(DRIVER_STATE)} }
        }
      }
    }`,
    ({ estado_actual: estado, ...profile }) => ({
      message: "Información del conductor",
      conductor: {
        ...flatDriver(profile),
        id: profile.conductor_id,
        nombre: profile.usuario.nombre,
        apellido: profile.usuario.apellido,
        telefono: profile.usuario.telefono,
        // No profile photo is kept.
        foto_perfil: null,
        vehiculo_tipo: appVehicleType(profile.vehiculo?.tipo ?? null),
        disponible: estado.disponibilidad,
        latitud: estado.latitud,
        longitud: estado.longitud,
      },
      ubicacion: estado.latitud === null ? null : estado,
    }),
    [PROFILE_FRAGMENT],
  ),
  driverRead(
    { path: "/conductor/get_profile.php", summary: "Perfil del conductor con licencia y vehículo", output: z.object({ profile: PROFILE }) },
    `query Profile { driverProfile { ...LegacyError ...LegacyDriverProfile } }`,
    (profile) => ({ profile: legacyProfile(profile) }),
    [PROFILE_FRAGMENT],
  ),
  driverRead(
    {
      path: "/conductor/verification_status.php",
      aliases: ["/conductor/get_verification_status.php"],
      summary: "Estado de revisión del perfil del conductor",
      output: z.object({
        status: z.object({
          aprobado: z.boolean(),
          estado_revision: PROFILE.shape.estado_verificacion,
          motivo_rechazo: z.string().nullable(),
          fecha_aprobacion: z.iso.datetime().nullable(),
          fecha_solicitud: z.iso.datetime().nullable(),
        }),
        ...PROFILE.pick({
          estado_verificacion: true,
          aprobado: true,
          motivo_rechazo: true,
          documentos_pendientes: true,
          documentos_rechazados: true,
        }).shape,
      }),
    },
    `query Status {
      verificationStatus {
        ...LegacyError
        ... on PerfilConductor { aprobado estado_revision motivo_rechazo fecha_aprobacion fecha_solicitud completitud { faltantes } }
      }
    }`,
    ({ completitud, ...status }) => ({
      status,
      // pingo's VerificationStatusScreen reads these at the top level.
      estado_verificacion: status.estado_revision,
      aprobado: status.aprobado,
      motivo_rechazo: status.motivo_rechazo,
      documentos_pendientes: completitud.faltantes,
      documentos_rechazados: [],
    }),
  ),
];

/** The driver's application: their data, vehicle and licence, document photos, and sending it for review. */
export const applicationRoutes: LegacyRoute[] = [
  defineRoute({
    method: "POST",
    path: "/conductor/update_profile.php",
    summary: "Cambia los datos personales enviados del conductor",
    input: z.object({
      ...driver,
      nombre_completo: optional(legacyText()),
      telefono: optional(legacyText()),
      direccion: optional(legacyText()),
    }),
    caller: "conductor_id",
    document: operation(
      `mutation UpdateProfile($input: DriverProfileInput!) {
        updateDriverProfile(input: $input) { ...LegacyError ...LegacyDriverProfile }
      }`,
      PROFILE_FRAGMENT,
    ),
    variables: ({ conductor_id: _caller, ...input }) => ({ input }),
    output: z.object({ profile: PROFILE }),
    respond: (profile) => ({ message: "Perfil actualizado", profile: legacyProfile(profile) }),
  }),
  defineRoute({
    method: "POST",
    path: "/conductor/update_vehicle.php",
    summary: "Cambia los campos enviados del vehículo (con o sin el prefijo vehiculo_)",
    input: z.object({ ...driver, ...legacyShape(VEHICLE_FIELDS), tipo: optional(legacyChoice(VEHICLE_TYPES, VEHICLE_TYPE_SPELLINGS)) }),
    spellings: VEHICLE_SPELLINGS,
    // The app's VehicleModel always sends its insurance fields, empty; the legacy interface has none.
    ignored: ["aseguradora", "numero_poliza_seguro", "vencimiento_seguro"],
    caller: "conductor_id",
    document: operation(
      `mutation UpdateVehicle($input: VehicleInput!) {
        updateVehicle(input: $input) { ...LegacyError ... on Vehiculo { ${VEHICLE} empresa_solicitada { nombre } } }
      }`,
    ),
    variables: ({ conductor_id: _caller, ...input }) => ({ input }),
    output: z.object({ vehicle: VEHICLE_SCHEMA }),
    // A company named here is asked to take the driver in: its answer changes empresa_id, not this call.
    respond: ({ empresa_solicitada: asked, ...vehicle }, input) => ({
      message:
        "empresa_id" in input && input.empresa_id !== undefined && asked
          ? `Vehículo actualizado. Tu solicitud a ${asked.nombre} está pendiente: tu empresa cambiará cuando la acepte`
          : "Vehículo actualizado",
      vehicle,
    }),
  }),
  defineRoute({
    method: "POST",
    path: "/conductor/update_license.php",
    summary: "Cambia los campos enviados de la licencia de conducción",
    // The category goes into an enum, so it is checked (in any case, "b1" is B1) with the domain's own rule.
    input: z.object({ ...driver, ...legacyShape(LICENCE_FIELDS), tipo: optional(legacyText().pipe(licenceCategory())) }),
    spellings: LICENCE_SPELLINGS,
    // Verification is an administrator's decision, never the driver's.
    ignored: ["licencia_verificada"],
    caller: "conductor_id",
    document: operation(
      `mutation UpdateLicense($input: LicenseInput!) { updateLicense(input: $input) { ...LegacyError ... on Licencia { ${LICENSE} } } }`,
    ),
    variables: ({ conductor_id: _caller, ...input }) => ({ input }),
    output: z.object({ license: LICENCE }),
    respond: (license) => ({ message: "Licencia actualizada", license }),
  }),
  defineRoute({
    method: "POST",
    path: "/conductor/submit_for_approval.php",
    aliases: ["/conductor/submit_verification.php"],
    summary: "Envía el perfil completo a revisión",
    input: z.object(driver),
    caller: "conductor_id",
    document: operation(
      `mutation Submit { submitForApproval { ...LegacyError ... on ResultadoRevision { repetido perfil { estado_revision } } } }`,
    ),
    variables: () => ({}),
    output: PROFILE.pick({ estado_verificacion: true }),
    respond: ({ repetido, perfil }) => ({
      message: repetido
        ? `Tu perfil ya estaba ${perfil.estado_revision === "aprobado" ? "aprobado" : "en revisión"}; no hubo que enviarlo de nuevo`
        : "Perfil enviado a revisión; te avisaremos cuando un administrador lo revise",
      estado_verificacion: perfil.estado_revision,
    }),
  }),
  defineRoute({
    method: "POST",
    path: "/conductor/upload_documents.php",
    aliases: ["/conductor/upload_document.php"],
    summary: "Sube la foto (JPG o PNG) de un documento y responde su URL",
    multipart: true,
    input: z.object({ ...driver, tipo_documento: legacyChoice(DOCUMENT_TYPES, DOCUMENT_TYPE_SPELLINGS), documento: legacyFile() }),
    spellings: { document_type: "tipo_documento", document: "documento" },
    caller: "conductor_id",
    document: operation(`mutation Upload($tipo_documento: TipoDocumento!, $documento: File!) {
      uploadDocument(tipo_documento: $tipo_documento, documento: $documento) {
        ...LegacyError ... on DocumentoSubido { tipo_documento url }
      }
    }`),
    variables: ({ tipo_documento, documento }) => ({ tipo_documento, documento }),
    output: z.object({ url: z.string(), file_url: z.string(), data: z.object({ tipo_documento: z.string(), url: z.string() }) }),
    respond: (uploaded) => ({ message: "Documento recibido", url: uploaded.url, file_url: uploaded.url, data: uploaded }),
  }),
];
