import { z } from "zod";
import { REVIEW_STATES } from "../../../domain/drivers/approval.js";
import { optional } from "../../../domain/validation.js";
import { FLAT_DRIVER, flatDriver, PROFILE_FRAGMENT } from "../../driver-profile.js";
import { legacyChoice, legacyId, legacyText } from "../../legacy-fields.js";
import { PAGINATION, PENDING_DRIVER, selection } from "../../resources.js";
import { defineRoute, operation, type GraphQLData } from "../../route.js";
import { admin, adminChange, adminPage, int, maybeAdmin } from "./calls.js";

const DRIVER_PAGE = z.object({
  conductores: z.array(FLAT_DRIVER),
  pagination: PAGINATION,
  estadisticas: z.object({
    total_conductores: z.int(),
    pendientes_verificacion: z.int(),
    aprobados: z.int(),
    con_documentos_vencidos: z.int(),
  }),
});

const DOCUMENT_STATES = z.enum([...REVIEW_STATES, "reemplazado"]);
const HISTORY_ENTRY = z.object({
  id: int,
  tipo_documento: z.string(),
  ruta_archivo: z.string(),
  fecha_subida: z.iso.datetime(),
  reemplazado_en: z.iso.datetime().nullable(),
  estado: DOCUMENT_STATES,
  motivo_rechazo: z.string().nullable(),
  numero_documento: z.string().nullable(),
  fecha_vencimiento: z.iso.datetime().nullable(),
});

/** The review of drivers: who waits, approving and rejecting, and every driver with their documents. */
export const driverReviewRoutes = [
  defineRoute({
    method: "GET",
    path: "/admin/pending_drivers.php",
    aliases: ["/admin/get_pending_drivers.php"],
    summary: "Conductores que esperan revisión, los más antiguos primero",
    input: z.object(admin),
    caller: "admin_id",
    document: operation(`query Pending {
      pendingDrivers {
        ...LegacyError
        ... on QueryPendingDriversSuccess {
          data { conductor_id ${selection(PENDING_DRIVER.omit({ id: true }))} }
        }
      }
    }`),
    variables: () => ({}),
    output: z.object({ drivers: z.array(PENDING_DRIVER) }),
    // An entry's id is the driver's, the one aprobar_conductor and rechazar_conductor take.
    respond: (result) => ({
      drivers: result.data.map(({ conductor_id, ...entry }: { conductor_id: number }) => ({ id: conductor_id, ...entry })),
    }),
  }),
  adminChange(
    "POST",
    // pingo's admin app sends notas, always empty; approval keeps no notes.
    {
      path: "/admin/aprobar_conductor.php",
      aliases: ["/admin/approve_driver.php"],
      summary: "Aprueba a un conductor en revisión",
      ignored: ["notas"],
    },
    z.object({ ...maybeAdmin, conductor_id: legacyId() }),
    `mutation Approve($conductor_id: Int!) {
      approveDriver(conductor_id: $conductor_id) { ...LegacyError ... on ResultadoRevision { repetido } }
    }`,
    (review) => (review.repetido ? "El conductor ya estaba aprobado" : "Conductor aprobado"),
  ),
  adminChange(
    "POST",
    {
      path: "/admin/rechazar_conductor.php",
      aliases: ["/admin/reject_driver.php"],
      summary: "Rechaza a un conductor con un motivo, que se le notifica",
    },
    z.object({ ...maybeAdmin, conductor_id: legacyId(), motivo: legacyText() }),
    `mutation Reject($conductor_id: Int!, $motivo: String!) {
      rejectDriver(conductor_id: $conductor_id, motivo: $motivo) { ...LegacyError ... on ResultadoRevision { repetido } }
    }`,
    (review) => (review.repetido ? "El conductor ya estaba rechazado con ese motivo" : "Conductor rechazado; se le notificó el motivo"),
  ),
  adminPage({
    path: "/admin/get_conductores_documentos.php",
    summary: "Conductores por páginas y por estado de revisión, con sus documentos y lo que les falta",
    filters: { estado_verificacion: optional(legacyChoice(REVIEW_STATES)) },
    document: operation(
      `query Drivers($page: Int, $per_page: Int, $estado_verificacion: EstadoRevision) {
        drivers(page: $page, per_page: $per_page, estado_revision: $estado_verificacion) {
          ...LegacyError
          ... on PaginaConductores {
            items {
              ...LegacyDriverProfile
              usuario { email es_activo es_verificado calificacion total_calificaciones viajes_completados_como_conductor }
            }
            pagination { page per_page total total_pages }
            estadisticas { total_conductores pendientes_verificacion aprobados con_documentos_vencidos }
          }
        }
      }`,
      PROFILE_FRAGMENT,
    ),
    legacyNames: { estado_revision: "estado_verificacion" },
    page: DRIVER_PAGE,
    toPage: ({ items, pagination, estadisticas }) => ({ conductores: items.map(flatDriver), pagination, estadisticas }),
  }),
];

/** Every photo a driver had for their documents. */
export const documentHistoryRoutes = [
  defineRoute({
    method: "GET",
    path: "/admin/get_documentos_historial.php",
    summary: "Todas las fotos que un conductor tuvo para sus documentos, las más recientes primero, con su estado",
    input: z.object({ ...maybeAdmin, conductor_id: legacyId() }),
    caller: "admin_id",
    document: operation(`query DocumentHistory($conductor_id: Int!) {
      driverDocumentHistory(conductor_id: $conductor_id) {
        ...LegacyError
        ... on QueryDriverDocumentHistorySuccess {
          data { id tipo_documento url subido_en reemplazado_en estado motivo_rechazo numero_documento fecha_vencimiento }
        }
      }
    }`),
    variables: ({ conductor_id }) => ({ conductor_id }),
    output: z.object({ data: z.object({ historial: z.array(HISTORY_ENTRY), total: int }) }),
    // pingo's ConductorHistorialSheet reads each photo's link as ruta_archivo and its date as fecha_subida.
    respond: (result) => ({
      message: "Historial de documentos obtenido",
      data: {
        historial: result.data.map(({ url, subido_en, ...photo }: GraphQLData) => ({
          ...photo,
          ruta_archivo: url,
          fecha_subida: subido_en,
        })),
        total: result.data.length,
      },
    }),
  }),
];
