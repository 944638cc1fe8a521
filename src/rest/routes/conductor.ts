import { z } from "zod";
import { optional } from "../../domain/validation.js";
import { legacyFile, legacyId, legacyInt, legacyNumber, legacyText } from "../legacy-fields.js";
import { defineRoute, operation, type LegacyRoute } from "../route.js";

const LICENSE = "numero tipo fecha_emision fecha_expiracion imagen_frente imagen_reverso";
const VEHICLE = `marca modelo anio placa color capacidad_pasajeros tipo empresa_id soat_numero soat_vencimiento
  tecnomecanica_numero tecnomecanica_vencimiento tarjeta_propiedad_numero foto_vehiculo foto_tarjeta_propiedad foto_soat foto_tecnomecanica`;

export const PROFILE_FRAGMENT = `
fragment LegacyDriverProfile on PerfilConductor {
  id conductor_id nombre_completo telefono direccion aprobado motivo_rechazo fecha_aprobacion fecha_creacion fecha_actualizacion
  licencia { ${LICENSE} }
  vehiculo { ${VEHICLE} }
}`;

const driver = { conductor_id: legacyId() };

/** A GET about the calling driver: one query, one field of the answer. */
const driverRead = (path: string, extra: z.ZodRawShape, query: string, key: string, fragments: string[] = []) =>
  defineRoute({
    method: "GET",
    path,
    input: z.object({ ...driver, ...extra }),
    caller: "conductor_id",
    document: operation(query, ...fragments),
    variables: ({ conductor_id: _caller, ...rest }) => rest,
    respond: (result) => ({ [key]: result }),
  });

/** The vehicle fields as the driver apps send them: most with a vehiculo_ prefix. */
const VEHICLE_FIELDS = {
  vehiculo_marca: ["marca", legacyText()],
  vehiculo_modelo: ["modelo", legacyText()],
  vehiculo_anio: ["anio", legacyInt()],
  vehiculo_placa: ["placa", legacyText()],
  vehiculo_color: ["color", legacyText()],
  vehiculo_capacidad_pasajeros: ["capacidad_pasajeros", legacyInt()],
  vehiculo_tipo: ["tipo", legacyText()],
  empresa_id: ["empresa_id", legacyId()],
  soat_numero: ["soat_numero", legacyText()],
  soat_vencimiento: ["soat_vencimiento", legacyText()],
  tecnomecanica_numero: ["tecnomecanica_numero", legacyText()],
  tecnomecanica_vencimiento: ["tecnomecanica_vencimiento", legacyText()],
  tarjeta_propiedad_numero: ["tarjeta_propiedad_numero", legacyText()],
  foto_vehiculo: ["foto_vehiculo", legacyText()],
  foto_tarjeta_propiedad: ["foto_tarjeta_propiedad", legacyText()],
  foto_soat: ["foto_soat", legacyText()],
  foto_tecnomecanica: ["foto_tecnomecanica", legacyText()],
} as const;

const vehicleShape = Object.fromEntries(Object.entries(VEHICLE_FIELDS).map(([legacy, [, type]]) => [legacy, optional(type)]));

export const conductorRoutes: LegacyRoute[] = [
  defineRoute({
    method: "POST",
    path: "/conductor/update_location.php",
    input: z.object({ ...driver, latitud: legacyNumber(), longitud: legacyNumber(), disponibilidad: optional(legacyInt()) }),
    caller: "conductor_id",
    document: operation(`mutation Location($latitud: Float!, $longitud: Float!, $disponibilidad: Int) {
      updateDriverLocation(latitud: $latitud, longitud: $longitud, disponibilidad: $disponibilidad) {
        ...LegacyError
        ... on EstadoConductor { conductor_id latitud longitud disponibilidad posicion_en viaje_activo_id }
      }
    }`),
    variables: ({ latitud, longitud, disponibilidad }) => ({ latitud, longitud, disponibilidad }),
    respond: (ubicacion) => ({ message: "Ubicación actualizada", ubicacion }),
  }),
  driverRead(
    "/conductor/get_profile.php",
    {},
    `query Profile { driverProfile { ...LegacyError ...LegacyDriverProfile } }`,
    "profile",
    [PROFILE_FRAGMENT],
  ),
  driverRead(
    "/conductor/verification_status.php",
    {},
    `query Status { verificationStatus { ...LegacyError ... on PerfilConductor { aprobado estado_revision motivo_rechazo fecha_aprobacion fecha_solicitud } } }`,
    "status",
  ),
  driverRead(
    "/conductor/get_earnings.php",
    { periodo: legacyText() },
    `query Earnings($periodo: String!) {
      earnings(periodo: $periodo) { ...LegacyError ... on Ganancias { periodo total_viajes ganancia_total ganancia_promedio fecha_inicio fecha_fin } }
    }`,
    "earnings",
  ),
  driverRead(
    "/conductor/get_statistics.php",
    {},
    `query Statistics {
      driverStatistics {
        ...LegacyError
        ... on EstadisticasConductor {
          total_viajes viajes_hoy viajes_semana viajes_mes calificacion_promedio total_calificaciones tasa_aceptacion
          tasa_completacion tasa_cancelacion tiempo_promedio_respuesta distancia_total_km horas_activo
        }
      }
    }`,
    "statistics",
  ),
  defineRoute({
    method: "POST",
    path: "/conductor/update_profile.php",
    input: z.object({ ...driver, nombre_completo: optional(legacyText()), telefono: optional(legacyText()), direccion: optional(legacyText()) }),
    caller: "conductor_id",
    document: operation(
      `mutation UpdateProfile($input: DriverProfileInput!) { updateDriverProfile(input: $input) { ...LegacyError ...LegacyDriverProfile } }`,
      PROFILE_FRAGMENT,
    ),
    variables: ({ conductor_id: _caller, ...input }) => ({ input }),
    respond: (profile) => ({ message: "Perfil actualizado", profile }),
  }),
  defineRoute({
    method: "POST",
    path: "/conductor/update_vehicle.php",
    input: z.object({ ...driver, ...vehicleShape }),
    caller: "conductor_id",
    document: operation(`mutation UpdateVehicle($input: VehicleInput!) { updateVehicle(input: $input) { ...LegacyError ... on Vehiculo { ${VEHICLE} } } }`),
    variables: (fields) => ({
      input: Object.fromEntries(Object.entries(VEHICLE_FIELDS).map(([legacy, [name]]) => [name, (fields as Record<string, unknown>)[legacy]])),
    }),
    legacyNames: Object.fromEntries(Object.entries(VEHICLE_FIELDS).map(([legacy, [name]]) => [name, legacy])),
    respond: (vehicle) => ({ message: "Vehículo actualizado", vehicle }),
  }),
  defineRoute({
    method: "POST",
    path: "/conductor/update_license.php",
    input: z.object({
      ...driver,
      numero: optional(legacyText()),
      tipo: optional(legacyText()),
      fecha_emision: optional(legacyText()),
      fecha_expiracion: optional(legacyText()),
      imagen_frente: optional(legacyText()),
      imagen_reverso: optional(legacyText()),
    }),
    caller: "conductor_id",
    document: operation(`mutation UpdateLicense($input: LicenseInput!) { updateLicense(input: $input) { ...LegacyError ... on Licencia { ${LICENSE} } } }`),
    variables: ({ conductor_id: _caller, ...input }) => ({ input }),
    respond: (license) => ({ message: "Licencia actualizada", license }),
  }),
  defineRoute({
    method: "POST",
    path: "/conductor/submit_for_approval.php",
    input: z.object(driver),
    caller: "conductor_id",
    document: operation(`mutation Submit { submitForApproval { ...LegacyError ... on PerfilConductor { estado_revision } } }`),
    variables: () => ({}),
    respond: () => ({ message: "Perfil enviado a revisión; te avisaremos cuando un administrador lo revise" }),
  }),
  defineRoute({
    method: "POST",
    path: "/conductor/upload_documents.php",
    multipart: true,
    input: z.object({ ...driver, tipo_documento: legacyText(), documento: legacyFile() }),
    caller: "conductor_id",
    document: operation(`mutation Upload($tipo_documento: String!, $documento: File!) {
      uploadDocument(tipo_documento: $tipo_documento, documento: $documento) { ...LegacyError ... on DocumentoSubido { url } }
    }`),
    variables: ({ tipo_documento, documento }) => ({ tipo_documento, documento }),
    status: 201,
    respond: (uploaded) => ({ message: "Documento recibido", url: uploaded.url }),
  }),
];
