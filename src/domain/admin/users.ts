import { z } from "zod";
import type { Prisma } from "../../db/client.js";
import { containsIgnoringCase } from "../../db/search.js";
import { authorize, isMember, type Actor } from "../actor.js";
import { announceAccountChange, announceRevoked, revokeUserAccess } from "../accounts/sessions.js";
import { USER_TYPES } from "../user-types.js";
import { getUser } from "../accounts/users.js";
import type { Deps } from "../deps.js";
import { takeOffline } from "../drivers/availability.js";
import { refreshPresence } from "../matching/online-drivers.js";
import { documentFolder } from "../drivers/documents.js";
import { ACTIVE_STATES } from "../trip-states.js";
import { InvalidStateError, NotFoundError, ValidationError } from "../errors.js";
import { announce, createNotification } from "../notifications/notifications.js";
import { deliver, nothingTold } from "../notifications/tell.js";
import { assignCompany } from "../affiliations/changes.js";
import { oneOf, optional, parseInput, phone, positiveId, parseChanges, text, type Raw, fieldParser } from "../validation.js";
import { ADMIN_RULES } from "./access.js";
import { audit } from "../audit/audit.js";
import { byColumn, orderOf, pageFields, pageOf, sortFields, type Sorting } from "../paging.js";

const parseUserId = fieldParser("user_id", positiveId());

const USER_SORTS = ["id", "nombre", "email", "fecha_registro", "tipo_usuario"] as const;

export const USER_SORTING: Sorting<(typeof USER_SORTS)[number], Prisma.UserOrderByWithRelationInput> = {
  columns: {
    id: byColumn("id"),
    nombre: (order) => [{ nombre: order }, { apellido: order }],
    email: byColumn("email"),
    fecha_registro: byColumn("creado_en"),
    tipo_usuario: byColumn("tipo_usuario"),
  },
  sort: "id",
  order: "asc",
};

const listSchema = z.object({
  ...pageFields,
  ...sortFields(USER_SORTS),
  search: optional(text(100)),
  tipo_usuario: optional(oneOf(USER_TYPES)),
  es_activo: optional(z.boolean()),
});

/** Users page by page, filtered by type and state, searched by name, e-mail or phone, and sorted. */
export async function listUsers(deps: Deps, actor: Actor, input: Raw<typeof listSchema>) {
  authorize(actor, ADMIN_RULES.listUsers);
  const { search, tipo_usuario, es_activo, sort, order, ...pageInput } = parseInput(listSchema, input);
  const { skip, take, pagination } = pageOf(pageInput);
  const like = search ? containsIgnoringCase(deps.provider, search) : undefined;
  const where = {
    eliminado_en: null,
    ...(tipo_usuario ? { tipo_usuario } : {}),
    ...(es_activo !== undefined ? { es_activo } : {}),
    ...(like ? { OR: [{ nombre: like }, { apellido: like }, { email: like }, { telefono: like }] } : {}),
  };
  const [total, items] = await Promise.all([
    deps.db.user.count({ where }),
    deps.db.user.findMany({ where, orderBy: orderOf(USER_SORTING, { sort, order }), skip, take }),
  ]);
  return { items, pagination: pagination(total) };
}

const updateSchema = z.object({
  nombre: optional(text(100)),
  apellido: optional(text(100)),
  telefono: optional(phone()),
  tipo_usuario: optional(oneOf(USER_TYPES)),
  es_activo: optional(z.boolean()),
  es_verificado: optional(z.boolean()),
  /** A company's id sets the driver's company, null clears it. */
  empresa_id: positiveId().nullable().optional(),
});

/** An administrator may not lock themselves out: no self-demotion, deactivation, suspension or deletion. */
function assertNotSelf(actor: Actor, userId: number, action: string): void {
  if (isMember(actor) && actor.id === userId) throw new ValidationError(`No puedes ${action} tu propia cuenta`);
}

/**
 * Changes only the fields sent. A user who becomes a driver gets an empty driver profile. A
 * deactivated user, or one whose role changes, is signed out everywhere at once.
 */
export async function updateUser(deps: Deps, actor: Actor, userId: unknown, input: Raw<typeof updateSchema>) {
  authorize(actor, ADMIN_RULES.updateUser);
  const id = parseUserId(userId);
  const changes = parseChanges(updateSchema, input);
  const user = await getUser(deps.db, id);
  if (changes.es_activo === false || (changes.tipo_usuario && changes.tipo_usuario !== "admin")) {
    assertNotSelf(actor, id, "desactivar ni cambiar el tipo de");
  }
  if (changes.empresa_id && !(await deps.db.company.findUnique({ where: { id: changes.empresa_id } }))) {
    throw new NotFoundError(`No existe una empresa con id ${changes.empresa_id}`);
  }
  const { empresa_id, ...fields } = changes;
  const now = deps.clock.now();
  const deactivated = user.es_activo && changes.es_activo === false;
  const roleChanged = changes.tipo_usuario !== undefined && changes.tipo_usuario !== user.tipo_usuario;
  const told = nothingTold();
  const { updated, revoked } = await deps.db.$transaction(async (tx) => {
    if (empresa_id !== undefined) await assignCompany(tx, deps, actor, told, id, empresa_id);
    const updated = await tx.user.update({ where: { id }, data: fields });
    if (updated.tipo_usuario === "conductor") {
      await tx.driverProfile.upsert({
        where: { conductor_id: id },
        create: { conductor_id: id, nombre_completo: `${updated.nombre} ${updated.apellido}`, telefono: updated.telefono },
        update: {},
      });
    }
    // A deactivated driver stops receiving trips at once.
    if (deactivated) await takeOffline(tx, id, now);
    const revoked = deactivated || roleChanged ? await revokeUserAccess(tx, id, now) : [];
    await audit(tx, deps, actor, { accion: "actualizar_usuario", objetivo_tipo: "usuario", objetivo_id: id, detalles: changes });
    return { updated, revoked };
  });
  deliver(deps, told);
  announceRevoked(deps, revoked);
  announceAccountChange(deps, id);
  await refreshPresence(deps, id);
  return updated;
}

/** What remains of a deleted account: its id, role and dates, nothing that names or reaches the person. */
const erased = (id: number, now: Date) => ({
  nombre: "Usuario",
  apellido: "eliminado",
  // Frees the address for a new registration; .invalid never delivers mail.
  email: `eliminado-${id}@eliminado.invalid`,
  telefono: "",
  password_hash: "!",
  es_activo: false,
  es_verificado: false,
  empresa_id: null,
  fecha_suspension: null,
  motivo_suspension: null,
  eliminado_en: now,
});

/**
 * Deletes an account: the person's data (name, e-mail, phone, addresses, saved places, emergency
 * contacts, quotes, reservations, driver profile and document photos, notifications) is erased and the account can never sign in again, but its id
 * stays in the trips it took part in, so the other side's history, earnings and statistics still
 * add up and the apps, which require every trip's usuario_id, keep showing it.
 */
export async function deleteUser(deps: Deps, actor: Actor, userId: unknown) {
  authorize(actor, ADMIN_RULES.deleteUser);
  const id = parseUserId(userId);
  assertNotSelf(actor, id, "eliminar");
  const user = await getUser(deps.db, id);
  const now = deps.clock.now();
  const revoked = await deps.db.$transaction(async (tx) => {
    const active = await tx.trip.findFirst({
      where: { estado: { in: [...ACTIVE_STATES] }, OR: [{ usuario_id: id }, { conductor_id: id }] },
    });
    if (active)
      throw new InvalidStateError(`El usuario tiene el viaje ${active.id} activo; termínalo o cancélalo antes de eliminar la cuenta`);
    const revoked = await revokeUserAccess(tx, id, now);
    await takeOffline(tx, id, now);
    // The licence, vehicle and position go with the driver profile.
    await tx.driverProfile.deleteMany({ where: { conductor_id: id } });
    await tx.userLocation.deleteMany({ where: { usuario_id: id } });
    await tx.savedPlace.deleteMany({ where: { usuario_id: id } });
    await tx.emergencyContact.deleteMany({ where: { usuario_id: id } });
    await tx.quote.deleteMany({ where: { usuario_id: id } });
    // Reservations not dispatched are theirs alone (dispatched ones stay, as trips do); a driver's commitments are let go.
    await tx.reservation.deleteMany({ where: { usuario_id: id, viaje_id: null } });
    await tx.reservation.updateMany({
      where: { conductor_id: id, estado: "programada" },
      data: { conductor_id: null, comprometida_en: null },
    });
    await tx.notification.deleteMany({ where: { usuario_id: id } });
    await tx.emailVerification.deleteMany({ where: { usuario_id: id } });
    await tx.user.update({ where: { id }, data: erased(id, now) });
    await audit(tx, deps, actor, {
      accion: "eliminar_usuario",
      objetivo_tipo: "usuario",
      objetivo_id: id,
      detalles: { tipo_usuario: user.tipo_usuario },
    });
    return revoked;
  });
  announceRevoked(deps, revoked);
  announceAccountChange(deps, id);
  await refreshPresence(deps, id);
  // The account is already erased; photos left behind by a failing disk are logged, not a failed deletion.
  await deps.uploads
    .remove(documentFolder(id))
    .catch((error) => deps.log.error({ err: error, usuario_id: id }, "could not remove a deleted driver's photos"));
  return user;
}

const suspendSchema = z.object({ user_id: positiveId(), motivo: text(500) });

/** Suspends an account: the user is signed out everywhere and refused at login (403) until activated again. */
export async function suspendUser(deps: Deps, actor: Actor, input: Raw<typeof suspendSchema>) {
  authorize(actor, ADMIN_RULES.suspendOrActivate);
  const { user_id, motivo } = parseInput(suspendSchema, input);
  assertNotSelf(actor, user_id, "suspender");
  await getUser(deps.db, user_id);
  const now = deps.clock.now();
  const { notification, revoked } = await deps.db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user_id }, data: { fecha_suspension: now, motivo_suspension: motivo } });
    await takeOffline(tx, user_id, now);
    const revoked = await revokeUserAccess(tx, user_id, now);
    await audit(tx, deps, actor, { accion: "suspender_usuario", objetivo_tipo: "usuario", objetivo_id: user_id, detalles: { motivo } });
    const notification = await createNotification(tx, user_id, {
      tipo: "cuenta_suspendida",
      titulo: "Cuenta suspendida",
      mensaje: `Tu cuenta fue suspendida: ${motivo}`,
    });
    return { notification, revoked };
  });
  announceRevoked(deps, revoked);
  announceAccountChange(deps, user_id);
  announce(deps, notification);
  await refreshPresence(deps, user_id);
  return getUser(deps.db, user_id);
}

/** Lifts a suspension (and an administrator's deactivation). */
export async function activateUser(deps: Deps, actor: Actor, userId: unknown) {
  authorize(actor, ADMIN_RULES.suspendOrActivate);
  const id = parseUserId(userId);
  await getUser(deps.db, id);
  const notification = await deps.db.$transaction(async (tx) => {
    await tx.user.update({ where: { id }, data: { es_activo: true, fecha_suspension: null, motivo_suspension: null } });
    await audit(tx, deps, actor, { accion: "activar_usuario", objetivo_tipo: "usuario", objetivo_id: id });
    return createNotification(tx, id, { tipo: "cuenta_activada", titulo: "Cuenta activada", mensaje: "Tu cuenta está activa de nuevo." });
  });
  announceAccountChange(deps, id);
  announce(deps, notification);
  await refreshPresence(deps, id);
  return getUser(deps.db, id);
}
