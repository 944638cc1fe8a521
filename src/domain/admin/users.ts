import { z } from "zod";
import { containsIgnoringCase } from "../../db/search.js";
import { assertAdmin } from "../accounts/access.js";
import { getUser, USER_TYPES } from "../accounts/users.js";
import type { Deps } from "../deps.js";
import { takeOffline } from "../drivers/availability.js";
import { NotFoundError, ValidationError } from "../errors.js";
import { announce, createNotification } from "../notifications/notifications.js";
import { integer, oneOf, optional, parseInput, phone, positiveId, text, type Raw, parseField } from "../validation.js";

/** Spec section 8: pages of 20 users by default, 100 at most. */
export const PAGE = { defaultSize: 20, maxSize: 100 } as const;

const listSchema = z.object({
  page: optional(integer().min(1, "debe ser 1 o mayor")),
  per_page: optional(integer().min(1, `debe estar entre 1 y ${PAGE.maxSize}`).max(PAGE.maxSize, `debe estar entre 1 y ${PAGE.maxSize}`)),
  search: optional(text(100)),
  tipo_usuario: optional(oneOf(USER_TYPES)),
  es_activo: optional(z.boolean()),
});

/** Users page by page, filtered by type and state and searched by name, e-mail or phone. */
export async function listUsers(deps: Deps, adminId: number, input: Raw<typeof listSchema>) {
  await assertAdmin(deps.db, adminId);
  const { page = 1, per_page = PAGE.defaultSize, search, tipo_usuario, es_activo } = parseInput(listSchema, input);
  const like = search ? containsIgnoringCase(deps.provider, search) : undefined;
  const where = {
    ...(tipo_usuario ? { tipo_usuario } : {}),
    ...(es_activo !== undefined ? { es_activo } : {}),
    ...(like ? { OR: [{ nombre: like }, { apellido: like }, { email: like }, { telefono: like }] } : {}),
  };
  const [total, usuarios] = await Promise.all([
    deps.db.user.count({ where }),
    deps.db.user.findMany({ where, orderBy: { id: "asc" }, skip: (page - 1) * per_page, take: per_page }),
  ]);
  return { usuarios, pagination: { page, per_page, total, total_pages: Math.ceil(total / per_page) } };
}

const updateSchema = z.object({
  nombre: optional(text(100)),
  apellido: optional(text(100)),
  telefono: optional(phone()),
  tipo_usuario: optional(oneOf(USER_TYPES)),
  es_activo: optional(z.boolean()),
  es_verificado: optional(z.boolean()),
  empresa_id: optional(positiveId()),
});

/** An administrator may not lock themselves out: no self-demotion, deactivation, suspension or deletion. */
function assertNotSelf(adminId: number, userId: number, action: string): void {
  if (adminId === userId) throw new ValidationError(`No puedes ${action} tu propia cuenta`);
}

/** Changes only the fields sent. A user who becomes a driver gets an empty driver profile. */
export async function updateUser(deps: Deps, adminId: number, userId: unknown, input: Raw<typeof updateSchema>) {
  await assertAdmin(deps.db, adminId);
  const id = parseField("user_id", positiveId(), userId);
  const changes = parseInput(updateSchema, input);
  const user = await getUser(deps.db, id);
  if (changes.es_activo === false || (changes.tipo_usuario && changes.tipo_usuario !== "admin")) {
    assertNotSelf(adminId, id, "desactivar ni cambiar el tipo de");
  }
  if (changes.empresa_id !== undefined && !(await deps.db.company.findUnique({ where: { id: changes.empresa_id } }))) {
    throw new NotFoundError(`No existe una empresa con id ${changes.empresa_id}`);
  }
  const now = deps.clock.now();
  return deps.db.$transaction(async (tx) => {
    const updated = await tx.user.update({ where: { id }, data: changes });
    if (updated.tipo_usuario === "conductor") {
      await tx.driverProfile.upsert({
        where: { conductor_id: id },
        create: { conductor_id: id, nombre_completo: `${updated.nombre} ${updated.apellido}`, telefono: updated.telefono },
        update: {},
      });
    }
    // A deactivated driver stops receiving trips at once.
    if (user.es_activo && changes.es_activo === false) await takeOffline(tx, id, now);
    return updated;
  });
}


/**
 * Deletes a user for good. Their trips stay, with the passenger or driver left empty, so that
 * the other side's history, earnings and statistics still add up.
 */
export async function deleteUser(deps: Deps, adminId: number, userId: unknown) {
  await assertAdmin(deps.db, adminId);
  const id = parseField("user_id", positiveId(), userId);
  assertNotSelf(adminId, id, "eliminar");
  const user = await getUser(deps.db, id);
  await deps.db.$transaction(async (tx) => {
    // Records keyed by the user without a foreign key go first; the rest cascade or are set null.
    await tx.onlinePeriod.deleteMany({ where: { conductor_id: id } });
    await tx.tripOffer.deleteMany({ where: { conductor_id: id } });
    await tx.user.delete({ where: { id } });
  });
  return user;
}

const suspendSchema = z.object({ user_id: positiveId(), motivo: text(500) });

/** Suspends an account: the user is refused at login (403) until activated again. */
export async function suspendUser(deps: Deps, callerId: number | null, input: Raw<typeof suspendSchema>) {
  const { user_id, motivo } = parseInput(suspendSchema, input);
  if (callerId !== null) {
    await assertAdmin(deps.db, callerId);
    assertNotSelf(callerId, user_id, "suspender");
  }
  await getUser(deps.db, user_id);
  const now = deps.clock.now();
  const notification = await deps.db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user_id }, data: { fecha_suspension: now, motivo_suspension: motivo } });
    await takeOffline(tx, user_id, now);
    return createNotification(tx, user_id, { tipo: "cuenta_suspendida", titulo: "Cuenta suspendida", mensaje: `Tu cuenta fue suspendida: ${motivo}` });
  });
  announce(deps, notification);
  return getUser(deps.db, user_id);
}

/** Lifts a suspension (and an administrator's deactivation). */
export async function activateUser(deps: Deps, callerId: number | null, userId: unknown) {
  const id = parseField("user_id", positiveId(), userId);
  if (callerId !== null) await assertAdmin(deps.db, callerId);
  await getUser(deps.db, id);
  const notification = await deps.db.$transaction(async (tx) => {
    await tx.user.update({ where: { id }, data: { es_activo: true, fecha_suspension: null, motivo_suspension: null } });
    return createNotification(tx, id, { tipo: "cuenta_activada", titulo: "Cuenta activada", mensaje: "Tu cuenta está activa de nuevo." });
  });
  announce(deps, notification);
  return getUser(deps.db, id);
}
