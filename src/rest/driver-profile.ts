import { z } from "zod";
import { REVIEW_STATES } from "../domain/drivers/approval.js";
import { withSpellings } from "./legacy-fields.js";
import { LICENCE, VEHICLE, selection } from "./resources.js";
import type { GraphQLData } from "./route.js";

/** How the driver app spells licence fields, on the way in and in the profile it reads (pingo's DriverLicenseModel). */
export const LICENCE_SPELLINGS = {
  licencia_conduccion: "numero",
  licencia_numero: "numero",
  licencia_categoria: "tipo",
  licencia_expedicion: "fecha_emision",
  licencia_vencimiento: "fecha_expiracion",
  licencia_foto_url: "imagen_frente",
  licencia_foto_reverso: "imagen_reverso",
};

/** The legacy interface's vehiculo_ prefix (update_vehicle) and the photo names of the app's VehicleModel. */
export const VEHICLE_SPELLINGS = {
  vehiculo_marca: "marca",
  vehiculo_modelo: "modelo",
  vehiculo_anio: "anio",
  vehiculo_placa: "placa",
  vehiculo_color: "color",
  vehiculo_capacidad_pasajeros: "capacidad_pasajeros",
  vehiculo_tipo: "tipo",
  tarjeta_propiedad_foto_url: "foto_tarjeta_propiedad",
  soat_foto_url: "foto_soat",
  tecnomecanica_foto_url: "foto_tecnomecanica",
  imagen_frontal: "foto_vehiculo",
};

export const PROFILE_FRAGMENT = `
fragment LegacyDriverProfile on PerfilConductor {
  id conductor_id nombre_completo telefono direccion aprobado estado_revision motivo_rechazo fecha_aprobacion
  fecha_creacion fecha_actualizacion
  licencia { ${selection(LICENCE)} }
  vehiculo { ${selection(VEHICLE)} }
  completitud { requeridos completos faltantes porcentaje }
  documentos_vencidos
}`;

type Row = Record<string, GraphQLData>;

/**
 * A profile as the legacy interface shows it, with what the app's profile and verification screens read too:
 * the licence and vehicle under the app's field names, the review state by the app's name, and
 * what is missing. Documents are never refused one by one here, so none is listed as rejected.
 */
export const legacyProfile = ({ estado_revision, licencia, vehiculo, completitud, ...profile }: Row): Row => ({
  ...profile,
  estado_verificacion: estado_revision,
  documentos_pendientes: completitud.faltantes,
  documentos_rechazados: [],
  porcentaje_completitud: completitud.porcentaje,
  licencia: withSpellings(licencia, LICENCE_SPELLINGS),
  vehiculo: withSpellings(vehiculo, VEHICLE_SPELLINGS),
});

/** A driver as one flat record, the way pingo's admin review screen reads the list (lib/src/features/admin). */
export function flatDriver({ conductor_id, usuario, ...profile }: Row) {
  const { licencia, vehiculo, documentos_vencidos, ...rest } = legacyProfile(profile);
  // The licence only by the app's names: its own (numero, tipo) would be ambiguous beside the vehicle's.
  const licence = Object.fromEntries(Object.keys(LICENCE_SPELLINGS).map((name) => [name, licencia?.[name] ?? null]));
  const { tipo: _vehicleType, ...vehicle } = vehiculo ?? {};
  return {
    ...rest,
    ...licence,
    ...vehicle,
    usuario_id: conductor_id,
    email: usuario.email,
    es_activo: usuario.es_activo,
    es_verificado: usuario.es_verificado,
    calificacion_promedio: usuario.calificacion,
    total_calificaciones: usuario.total_calificaciones,
    total_viajes: usuario.viajes_completados_como_conductor,
    documentos_completos: profile.completitud.completos,
    total_documentos_requeridos: profile.completitud.requeridos,
    documentos_vencidos,
    tiene_documentos_vencidos: documentos_vencidos.length > 0,
  };
}

/** A licence or vehicle schema that also carries its fields under the app's spellings. */
const spelled = <S extends z.ZodObject>(schema: S, spellings: Record<string, string>) =>
  schema.extend(Object.fromEntries(Object.entries(spellings).map(([app, own]) => [app, schema.shape[own]!])));

const names = z.array(z.string());

/** What `legacyProfile` answers. */
export const PROFILE = z.object({
  id: z.int(),
  conductor_id: z.int(),
  nombre_completo: z.string().nullable(),
  telefono: z.string().nullable(),
  direccion: z.string().nullable(),
  aprobado: z.boolean(),
  motivo_rechazo: z.string().nullable(),
  fecha_aprobacion: z.iso.datetime().nullable(),
  fecha_creacion: z.iso.datetime(),
  fecha_actualizacion: z.iso.datetime(),
  estado_verificacion: z.enum(REVIEW_STATES),
  documentos_pendientes: names,
  documentos_rechazados: names,
  documentos_vencidos: names,
  porcentaje_completitud: z.int(),
  licencia: spelled(LICENCE, LICENCE_SPELLINGS).nullable(),
  vehiculo: spelled(VEHICLE, VEHICLE_SPELLINGS).nullable(),
});

/** What `flatDriver` answers. */
export const FLAT_DRIVER = PROFILE.omit({ conductor_id: true, licencia: true, vehiculo: true })
  .extend(
    Object.fromEntries(Object.entries(LICENCE_SPELLINGS).map(([app, own]) => [app, LICENCE.shape[own as keyof typeof LICENCE.shape]])),
  )
  .extend(spelled(VEHICLE, VEHICLE_SPELLINGS).omit({ tipo: true }).partial().shape)
  .extend({
    usuario_id: z.int(),
    email: z.string(),
    es_activo: z.boolean(),
    es_verificado: z.boolean(),
    calificacion_promedio: z.number(),
    total_calificaciones: z.int(),
    total_viajes: z.int(),
    documentos_completos: z.int(),
    total_documentos_requeridos: z.int(),
    tiene_documentos_vencidos: z.boolean(),
  });
