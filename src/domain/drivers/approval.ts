import { z } from "zod";
import type { Prisma } from "../../db/client.js";
import { authorize, member, type Actor } from "../actor.js";
import type { AuditAction } from "../audit/audit-actions.js";
import { audit } from "../audit/audit.js";
import type { Deps } from "../deps.js";
import { InvalidStateError, ValidationError } from "../errors.js";
import { refreshPresence } from "../matching/online-drivers.js";
import { announce, createNotification, type NotificationContent } from "../notifications/notifications.js";
import type { VehicleType } from "../service-types.js";
import { parseInput, positiveId, text, type Raw, fieldParser } from "../validation.js";
import { DRIVER_RULES } from "./access.js";
import { LICENCE_FIELDS, VEHICLE_FIELDS, VEHICLE_OPTIONAL_FOR_APPROVAL, type VehicleField } from "./fields.js";
import { LICENCE_CATEGORIES, licenceAllows } from "./licence-rules.js";
import { assertDocumentsInForce, loadDriver, type LoadedDriver } from "./readiness.js";

const parseDriverId = fieldParser("conductor_id", positiveId());

/** Where a driver's application stands. */
export const REVIEW_STATES = ["pendiente", "en_revision", "aprobado", "rechazado"] as const;

/** What a complete application has (spec 2.5 to 2.7), by part, with the names clients use. */
const REQUIRED = {
  perfil: ["nombre_completo", "telefono", "direccion"],
  licencia: Object.keys(LICENCE_FIELDS),
  vehiculo: (Object.keys(VEHICLE_FIELDS) as VehicleField[]).filter((field) => !VEHICLE_OPTIONAL_FOR_APPROVAL.includes(field)),
};

const REQUIRED_COUNT = Object.values(REQUIRED).reduce((sum, fields) => sum + fields.length, 0);

/** Every field an application still lacks, as "part.field". */
export function missingForApproval(driver: Pick<LoadedDriver, "licencia" | "vehiculo"> & Record<string, unknown>): string[] {
  const parts = { perfil: driver, licencia: driver.licencia, vehiculo: driver.vehiculo } as Record<string, Record<string, unknown> | null>;
  return Object.entries(REQUIRED).flatMap(([part, fields]) =>
    fields.filter((field) => parts[part]?.[field] == null || parts[part]?.[field] === "").map((field) => `${part}.${field}`),
  );
}

/** How far an application is: the fields it needs, how many it has, the rest by name, and the share done. */
export function completeness(driver: Parameters<typeof missingForApproval>[0]) {
  const faltantes = missingForApproval(driver);
  const completos = REQUIRED_COUNT - faltantes.length;
  return { requeridos: REQUIRED_COUNT, completos, faltantes, porcentaje: Math.round((completos / REQUIRED_COUNT) * 100) };
}

function assertLicenceFitsVehicle(driver: LoadedDriver): void {
  const vehicle = driver.vehiculo?.tipo as VehicleType;
  const category = driver.licencia!.tipo!;
  if (!licenceAllows(category, vehicle)) {
    throw new ValidationError(
      `La licencia ${category} no permite conducir '${vehicle}'; se necesita una de: ${LICENCE_CATEGORIES[vehicle].join(", ")}`,
    );
  }
}

/**
 * What a submission or a decision answers: the driver, and whether it changed nothing because its
 * outcome already held. Repeating one is no mistake (the app has two ways to submit, and an
 * administrator may press twice), so a repeat is answered as done.
 */
const reviewed = (perfil: LoadedDriver, repetido: boolean) => ({ perfil, repetido });

/** The driver sends a complete application for review, again after a rejection if need be; one in review or approved stays as it is. */
export async function submitForApproval(deps: Deps, actor: Actor) {
  const conductorId = member(actor, DRIVER_RULES.edit).id;
  const driver = await loadDriver(deps.db, conductorId);
  if (driver.estado_revision === "en_revision" || driver.aprobado) return reviewed(driver, true);
  const missing = missingForApproval(driver);
  if (missing.length > 0) throw new ValidationError(`Faltan datos para enviar a revisión: ${missing.join(", ")}`);
  const now = deps.clock.now();
  assertDocumentsInForce(driver, now);
  assertLicenceFitsVehicle(driver);
  await deps.db.driverProfile.update({
    where: { conductor_id: conductorId },
    data: { estado_revision: "en_revision", fecha_solicitud: now, motivo_rechazo: null },
  });
  return reviewed(await loadDriver(deps.db, conductorId), false);
}

/** Applications waiting for an administrator, oldest first. */
export async function pendingDrivers(deps: Deps, actor: Actor) {
  authorize(actor, DRIVER_RULES.pending);
  return deps.db.driverProfile.findMany({
    where: { estado_revision: "en_revision" },
    include: { conductor: true, licencia: true, vehiculo: true },
    orderBy: [{ fecha_solicitud: "asc" }, { id: "asc" }],
  });
}

function assertSubmitted(driver: LoadedDriver): void {
  if (driver.estado_revision !== "en_revision") {
    throw new InvalidStateError(`El conductor no tiene una solicitud en revisión (estado: ${driver.estado_revision})`);
  }
}

/** Records an administrator's decision on a submitted application, audits it and tells the driver. */
async function decide(
  deps: Deps,
  actor: Actor,
  conductorId: number,
  decision: { accion: AuditAction; data: Prisma.DriverProfileUpdateInput; detalles?: Record<string, unknown> },
  message: NotificationContent,
) {
  const notification = await deps.db.$transaction(async (tx) => {
    await tx.driverProfile.update({ where: { conductor_id: conductorId }, data: decision.data });
    await audit(tx, deps, actor, {
      accion: decision.accion,
      objetivo_tipo: "conductor",
      objetivo_id: conductorId,
      detalles: decision.detalles,
    });
    return createNotification(tx, conductorId, message);
  });
  announce(deps, notification);
  await refreshPresence(deps, conductorId);
  return reviewed(await loadDriver(deps.db, conductorId), false);
}

/** Approves a submitted application whose documents are in force; approving an approved driver again changes nothing. */
export async function approveDriver(deps: Deps, actor: Actor, conductorId: unknown) {
  authorize(actor, DRIVER_RULES.review);
  const driver = await loadDriver(deps.db, parseDriverId(conductorId));
  if (driver.estado_revision === "aprobado") return reviewed(driver, true);
  assertSubmitted(driver);
  const now = deps.clock.now();
  assertDocumentsInForce(driver, now);
  return decide(
    deps,
    actor,
    driver.conductor_id,
    { accion: "aprobar_conductor", data: { aprobado: true, estado_revision: "aprobado", fecha_aprobacion: now, motivo_rechazo: null } },
    { tipo: "conductor_aprobado", titulo: "¡Tu perfil fue aprobado!", mensaje: "Ya puedes conectarte y recibir solicitudes de viaje." },
  );
}

const rejectSchema = z.object({ conductor_id: positiveId(), motivo: text(500) });

/**
 * Rejects a submitted application with a reason the driver is told; they may fix it and resubmit.
 * Rejecting a rejected driver again with the same reason changes nothing; with another reason,
 * that reason replaces the first and the driver is told it.
 */
export async function rejectDriver(deps: Deps, actor: Actor, input: Raw<typeof rejectSchema>) {
  authorize(actor, DRIVER_RULES.review);
  const { conductor_id, motivo } = parseInput(rejectSchema, input);
  const driver = await loadDriver(deps.db, conductor_id);
  if (driver.estado_revision === "rechazado") {
    if (driver.motivo_rechazo === motivo) return reviewed(driver, true);
  } else assertSubmitted(driver);
  return decide(
    deps,
    actor,
    driver.conductor_id,
    {
      accion: "rechazar_conductor",
      data: { aprobado: false, estado_revision: "rechazado", motivo_rechazo: motivo, fecha_aprobacion: null },
      detalles: { motivo },
    },
    {
      tipo: "conductor_rechazado",
      titulo: "Tu perfil necesita cambios",
      mensaje: `Tu solicitud fue rechazada: ${motivo}. Corrige los datos y envíala de nuevo.`,
    },
  );
}
