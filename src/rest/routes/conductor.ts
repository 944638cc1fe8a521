import { z } from "zod";
import { DOCUMENT_TYPES } from "../../domain/drivers/documents.js";
import { PERIODS } from "../../domain/drivers/earnings.js";
import { LICENCE_FIELDS, VEHICLE_FIELDS, type FieldKind } from "../../domain/drivers/fields.js";
import { licenceCategory } from "../../domain/drivers/profile.js";
import { VEHICLE_TYPES } from "../../domain/service-types.js";
import { optional } from "../../domain/validation.js";
import {
  DOCUMENT_TYPE_SPELLINGS,
  VEHICLE_TYPE_SPELLINGS,
  legacyChoice,
  legacyFile,
  legacyId,
  legacyInt,
  legacyNumber,
  legacyText,
} from "../legacy-fields.js";
import {
  FLAT_DRIVER,
  LICENCE_SPELLINGS,
  PROFILE,
  PROFILE_FRAGMENT,
  VEHICLE_SPELLINGS,
  flatDriver,
  legacyProfile,
} from "../driver-profile.js";
import { appVehicleType } from "../app-vocabulary.js";
import { DRIVER_STATE, EARNINGS, LICENCE, REQUEST, STATISTICS, TRIP, VEHICLE as VEHICLE_SCHEMA, selection } from "../resources.js";
import { defineRoute, operation, type GraphQLData, type LegacyRoute } from "../route.js";
import { TRIP_FRAGMENT } from "./trips.js";

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

const driver = { conductor_id: legacyId() };

/** A GET about the calling driver: one query, and how its result becomes the legacy body. */
const driverRead = (
  { extra, ...route }: Pick<LegacyRoute, "path" | "aliases" | "summary" | "spellings" | "output"> & { extra?: z.ZodRawShape },
  query: string,
  respond: (result: GraphQLData) => Record<string, unknown>,
  fragments: string[] = [],
) =>
  defineRoute({
    method: "GET",
    ...route,
    input: z.object({ ...driver, ...extra }),
    caller: "conductor_id",
    document: operation(query, ...fragments),
    variables: ({ conductor_id: _caller, ...rest }) => rest,
    respond,
  });

const SOLICITUD_FRAGMENT = `
fragment LegacyRequest on Viaje {
  id usuario_id pasajero_nombre tipo_servicio estado precio_estimado metodo_pago distancia_km duracion_estimada_minutos fecha_solicitud
  origen { direccion latitud longitud } destino { direccion latitud longitud }
}`;

const REQUESTS = z.object({ solicitudes: z.array(REQUEST), total: z.int() });

/** A pending trip as the driver app's request screens read it (flat coordinates and addresses). */
const solicitud = (trip: GraphQLData) => ({
  id: trip.id,
  usuario_id: trip.usuario_id,
  // The passenger's first name, which the request screen shows; nothing more of their account.
  cliente_nombre: trip.pasajero_nombre,
  tipo_servicio: trip.tipo_servicio,
  estado: trip.estado,
  latitud_origen: trip.origen.latitud,
  longitud_origen: trip.origen.longitud,
  direccion_origen: trip.origen.direccion,
  latitud_destino: trip.destino.latitud,
  longitud_destino: trip.destino.longitud,
  direccion_destino: trip.destino.direccion,
  distancia_km: trip.distancia_km,
  duracion_minutos: trip.duracion_estimada_minutos,
  precio_estimado: trip.precio_estimado,
  // Whether the driver collects the fare in cash.
  metodo_pago: trip.metodo_pago,
  fecha_solicitud: trip.fecha_solicitud,
});

/** Where the driver is and whether they take trips: the location and availability calls both report it. */
const REPORT_POSITION = operation(`mutation Report($latitud: Float, $longitud: Float, $disponibilidad: Int) {
  updateDriverLocation(latitud: $latitud, longitud: $longitud, disponibilidad: $disponibilidad) {
    ...LegacyError ... on EstadoConductor { ${selection(DRIVER_STATE)} cambio_disponibilidad }
  }
}`);

/** What the driver is told after asking to go online (1) or offline (0): asking again what already holds is no error. */
function availabilityMessage({ disponibilidad, cambio_disponibilidad, viaje_activo_id }: GraphQLData, asked: number) {
  if (disponibilidad === 1) return cambio_disponibilidad ? "Estás en línea" : "Ya estabas en línea";
  if (asked === 1 && viaje_activo_id !== null) return "Tienes un viaje en curso; volverás a estar en línea al terminarlo";
  return cambio_disponibilidad ? "Estás fuera de línea" : "Ya estabas fuera de línea";
}

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

export const conductorRoutes: LegacyRoute[] = [
  defineRoute({
    method: "POST",
    path: "/conductor/update_location.php",
    aliases: ["/conductor/actualizar_ubicacion.php"],
    summary: "Posición del conductor (cada ~10 s) y, si se envía, su disponibilidad",
    input: z.object({ ...driver, latitud: legacyNumber(), longitud: legacyNumber(), disponibilidad: optional(legacyInt()) }),
    spellings: { disponible: "disponibilidad" },
    caller: "conductor_id",
    document: REPORT_POSITION,
    variables: ({ latitud, longitud, disponibilidad }) => ({ latitud, longitud, disponibilidad }),
    output: z.object({ ubicacion: DRIVER_STATE }),
    respond: ({ cambio_disponibilidad: _changed, ...ubicacion }) => ({ message: "Ubicación actualizada", ubicacion }),
  }),
  defineRoute({
    method: "POST",
    path: "/conductor/actualizar_disponibilidad.php",
    aliases: ["/conductor/update_availability.php"],
    summary: "El conductor se pone en línea (1) o fuera de línea (0), con su posición si la envía",
    input: z.object({ ...driver, disponibilidad: legacyInt(), latitud: optional(legacyNumber()), longitud: optional(legacyNumber()) }),
    spellings: { disponible: "disponibilidad" },
    caller: "conductor_id",
    document: REPORT_POSITION,
    variables: ({ latitud, longitud, disponibilidad }) => ({ latitud, longitud, disponibilidad }),
    legacyNames: { disponibilidad: "disponible" },
    output: z.object({ disponible: z.boolean(), ubicacion: DRIVER_STATE }),
    respond: ({ cambio_disponibilidad, ...estado }, { disponibilidad }) => ({
      message: availabilityMessage({ ...estado, cambio_disponibilidad }, disponibilidad),
      disponible: estado.disponibilidad === 1,
      ubicacion: estado,
    }),
  }),
  defineRoute({
    method: "POST",
    path: "/conductor/get_solicitudes_pendientes.php",
    summary: "El conductor busca viajes desde su posición: queda en línea y recibe las solicitudes pendientes a menos de 5 km",
    input: z.object({ ...driver, latitud_actual: legacyNumber(), longitud_actual: legacyNumber() }),
    spellings: { latitud: "latitud_actual", longitud: "longitud_actual" },
    // The radius is the service's (5 km, spec section 8), not the caller's.
    ignored: ["radio_km"],
    caller: "conductor_id",
    document: operation(
      `mutation LookForTrips($latitud: Float!, $longitud: Float!) {
        lookForTrips(latitud: $latitud, longitud: $longitud) {
          ...LegacyError ... on MutationLookForTripsSuccess { data { ...LegacyRequest } }
        }
      }`,
      SOLICITUD_FRAGMENT,
    ),
    variables: ({ latitud_actual, longitud_actual }) => ({ latitud: latitud_actual, longitud: longitud_actual }),
    legacyNames: { latitud: "latitud_actual", longitud: "longitud_actual" },
    output: REQUESTS,
    respond: (result) => ({ solicitudes: result.data.map(solicitud), total: result.data.length }),
  }),
  driverRead(
    {
      path: "/conductor/get_pending_requests.php",
      summary: "Las solicitudes pendientes a menos de 5 km del conductor en línea",
      output: REQUESTS,
    },
    `query Requests { tripRequests { ...LegacyError ... on QueryTripRequestsSuccess { data { ...LegacyRequest } } } }`,
    (result) => ({ solicitudes: result.data.map(solicitud), total: result.data.length }),
    [SOLICITUD_FRAGMENT],
  ),
  defineRoute({
    method: "POST",
    path: "/conductor/accept_trip_request.php",
    aliases: ["/conductor/aceptar_solicitud.php"],
    summary: "El conductor acepta una solicitud (el viaje del mismo id)",
    input: z.object({ ...driver, solicitud_id: legacyId() }),
    caller: "conductor_id",
    document: operation(
      `mutation Accept($trip_id: Int!) { acceptTrip(trip_id: $trip_id) { ...LegacyError ...LegacyTrip } }`,
      TRIP_FRAGMENT,
    ),
    variables: ({ solicitud_id }) => ({ trip_id: solicitud_id }),
    legacyNames: { trip_id: "solicitud_id" },
    output: z.object({ solicitud_id: z.int(), viaje_id: z.int(), trip: TRIP }),
    respond: (trip) => ({ message: "Viaje aceptado", solicitud_id: trip.id, viaje_id: trip.id, trip }),
  }),
  defineRoute({
    method: "POST",
    path: "/conductor/reject_trip_request.php",
    summary: "El conductor rechaza una solicitud",
    input: z.object({ ...driver, solicitud_id: legacyId(), motivo: optional(legacyText()) }),
    caller: "conductor_id",
    document: operation(`mutation Reject($trip_id: Int!) { rejectTripRequest(trip_id: $trip_id) { ...LegacyError ... on Viaje { id } } }`),
    variables: ({ solicitud_id }) => ({ trip_id: solicitud_id }),
    legacyNames: { trip_id: "solicitud_id" },
    output: z.object({ solicitud_id: z.int() }),
    respond: (trip) => ({ message: "Solicitud rechazada", solicitud_id: trip.id }),
  }),
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
  driverRead(
    {
      path: "/conductor/get_earnings.php",
      aliases: ["/conductor/get_ganancias.php"],
      summary: "Ganancias netas del conductor en un periodo (hoy, semana, mes, total) o entre dos fechas",
      extra: { periodo: optional(legacyChoice(PERIODS)), fecha_inicio: optional(legacyText()), fecha_fin: optional(legacyText()) },
      output: z.object({
        earnings: EARNINGS,
        ganancias: z.object({
          total: z.number(),
          total_viajes: z.int(),
          promedio_por_viaje: z.number(),
          desglose_diario: EARNINGS.shape.desglose_diario,
        }),
        periodo: z.string(),
      }),
    },
    `query Earnings($periodo: Periodo, $fecha_inicio: String, $fecha_fin: String) {
      earnings(periodo: $periodo, desde: $fecha_inicio, hasta: $fecha_fin) {
        ...LegacyError ... on Ganancias { ${selection(EARNINGS)} }
      }
    }`,
    (earnings) => ({
      earnings,
      // pingo's EarningsModel.
      ganancias: {
        total: earnings.ganancia_total,
        total_viajes: earnings.total_viajes,
        promedio_por_viaje: earnings.ganancia_promedio,
        desglose_diario: earnings.desglose_diario,
      },
      periodo: earnings.periodo,
    }),
  ),
  driverRead(
    {
      path: "/conductor/get_statistics.php",
      aliases: ["/conductor/get_estadisticas.php"],
      summary: "Estadísticas del conductor",
      output: z.object({ statistics: STATISTICS, estadisticas: STATISTICS }),
    },
    `query Statistics {
      driverStatistics {
        ...LegacyError
        ... on EstadisticasConductor {
          total_viajes viajes_hoy viajes_semana viajes_mes calificacion_promedio total_calificaciones tasa_aceptacion
          tasa_completacion tasa_cancelacion tiempo_promedio_respuesta distancia_total_km horas_activo horas_hoy ganancias_hoy
        }
      }
    }`,
    (statistics) => ({ statistics, estadisticas: statistics }),
  ),
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
    // pingo's VehicleModel always sends its insurance fields, empty; the spec has none.
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
