import { z } from "zod";
import { AUDIT_ACTIONS } from "../../../domain/audit/audit-actions.js";
import { optional } from "../../../domain/validation.js";
import { legacyChoice, legacyText } from "../../legacy-fields.js";
import { PAGINATION } from "../../resources.js";
import { operation, type GraphQLData } from "../../route.js";
import { adminPage } from "./calls.js";

/** An audit entry with the names pingo's AuditLogsScreen reads. */
const LOG_PAGE = z.object({
  logs: z.array(
    z.object({
      id: z.int(),
      admin_id: z.int().nullable(),
      via: z.string(),
      accion: z.string(),
      objetivo_tipo: z.string(),
      objetivo_id: z.int(),
      detalles: z.string().nullable(),
      direccion_ip: z.string().nullable(),
      creado_en: z.iso.datetime(),
      descripcion: z.string(),
      nombre: z.string().nullable(),
      apellido: z.string().nullable(),
      email: z.string().nullable(),
      fecha_creacion: z.iso.datetime(),
      ip_address: z.string().nullable(),
      user_agent: z.null(),
    }),
  ),
  pagination: PAGINATION,
});

export const auditRoutes = [
  adminPage({
    path: "/admin/audit_logs.php",
    summary: "Las acciones de los administradores, las más recientes primero",
    filters: {
      accion: optional(legacyChoice(AUDIT_ACTIONS)),
      fecha_desde: optional(legacyText()),
      fecha_hasta: optional(legacyText()),
    },
    document: operation(`query Audit($page: Int, $per_page: Int, $accion: AccionAuditoria, $fecha_desde: String, $fecha_hasta: String) {
      auditLog(page: $page, per_page: $per_page, accion: $accion, desde: $fecha_desde, hasta: $fecha_hasta) {
        ...LegacyError
        ... on PaginaAuditoria {
          items {
            id admin_id via accion objetivo_tipo objetivo_id detalles descripcion direccion_ip creado_en
            administrador { nombre apellido email }
          }
          pagination { page per_page total total_pages }
        }
      }
    }`),
    legacyNames: { desde: "fecha_desde", hasta: "fecha_hasta" },
    page: LOG_PAGE,
    // pingo's AuditLogsScreen reads the entries as logs, with these names.
    toPage: ({ items, pagination }) => ({
      logs: items.map(({ administrador, ...entry }: Record<string, GraphQLData>) => ({
        ...entry,
        nombre: administrador?.nombre ?? null,
        apellido: administrador?.apellido ?? null,
        email: administrador?.email ?? null,
        fecha_creacion: entry.creado_en,
        ip_address: entry.direccion_ip,
        // Not recorded.
        user_agent: null,
      })),
      pagination,
    }),
  }),
];
