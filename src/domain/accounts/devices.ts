import { createHash } from "node:crypto";
import { z } from "zod";
import type { Db, Tx } from "../../db/client.js";
import type { Deps } from "../deps.js";
import { email, parseInput } from "../validation.js";

/*
 * The phones an account is used from. The app asks, before its password screen, whether this
 * phone is known (check_device.php): a trusted one goes straight to the password, any other first
 * proves the mailbox with a code. Trust only chooses the next screen; signing in always takes the
 * password, so nothing here ever stands in for it.
 */

/** What a device check answers; `user_not_found` when no account has the e-mail. */
export const DEVICE_STATES = ["user_not_found", "unknown_device", "needs_verification", "trusted", "locked"] as const;
export type DeviceState = (typeof DEVICE_STATES)[number];

/** Wrong codes from one device before it is locked for a while. */
const DEVICE_MAX_FAILURES = 5;

/** The app's own device id (a UUID it keeps on the phone). */
export const deviceId = () =>
  z
    .string({ error: "es obligatorio" })
    .trim()
    .min(8, "debe tener al menos 8 caracteres")
    .max(100, "admite como máximo 100 caracteres")
    .regex(/^[A-Za-z0-9._:-]+$/, "solo admite letras, números y . _ : -");

// The device id is only ever compared, so only its hash is kept: the table alone names no phone.
const fingerprint = (device: string) => createHash("sha256").update(device).digest("hex");

const where = (userId: number, device: string) => ({ usuario_id_huella: { usuario_id: userId, huella: fingerprint(device) } });

const checkSchema = z.object({ email: email(), device_uuid: deviceId() });

/**
 * Whether an account exists for the e-mail and what this device is to it. Anyone may ask, so the
 * answer holds only what the app's next screen needs, and asking changes nothing.
 */
export async function deviceStatus(deps: Pick<Deps, "db" | "clock">, input: { email: string; device_uuid: string }) {
  const { email: address, device_uuid } = parseInput(checkSchema, input);
  const user = await deps.db.user.findUnique({ where: { email: address, eliminado_en: null }, select: { id: true } });
  if (!user) return { exists: false, status: "user_not_found" as DeviceState };
  const device = await deps.db.userDevice.findUnique({ where: where(user.id, device_uuid) });
  return { exists: true, status: stateOf(device, deps.clock.now()) };
}

function stateOf(device: { confiable: boolean; bloqueado_hasta: Date | null } | null, now: Date): DeviceState {
  if (!device) return "unknown_device";
  if (device.bloqueado_hasta && device.bloqueado_hasta > now) return "locked";
  return device.confiable ? "trusted" : "needs_verification";
}

/** Until when the device is locked, if it is. */
export async function lockedUntil(db: Db | Tx, userId: number, device: string, now: Date): Promise<Date | null> {
  const found = await db.userDevice.findUnique({ where: where(userId, device), select: { bloqueado_hasta: true } });
  return found?.bloqueado_hasta && found.bloqueado_hasta > now ? found.bloqueado_hasta : null;
}

/** The device proved itself (a right code, or the password): it is trusted and its failures forgotten. */
export async function trustDevice(db: Db | Tx, userId: number, device: string, now: Date): Promise<void> {
  const trusted = { confiable: true, intentos_fallidos: 0, bloqueado_hasta: null, visto_en: now };
  await db.userDevice.upsert({
    where: where(userId, device),
    create: { usuario_id: userId, huella: fingerprint(device), creado_en: now, ...trusted },
    update: trusted,
  });
}

/** Counts a wrong code from the device; the fifth in a row locks it for `lockMs`. Answers the lock's end, if one began. */
export async function countWrongCode(tx: Tx, userId: number, device: string, now: Date, lockMs: number): Promise<Date | null> {
  const counted = await tx.userDevice.upsert({
    where: where(userId, device),
    create: { usuario_id: userId, huella: fingerprint(device), creado_en: now, visto_en: now, intentos_fallidos: 1 },
    update: { intentos_fallidos: { increment: 1 }, visto_en: now },
  });
  if (counted.intentos_fallidos < DEVICE_MAX_FAILURES) return null;
  const until = new Date(now.getTime() + lockMs);
  // The lock starts the count again: after it, five more tries.
  await tx.userDevice.update({ where: { id: counted.id }, data: { bloqueado_hasta: until, intentos_fallidos: 0, confiable: false } });
  return until;
}

/** Forgets which of a user's devices were trusted: each must prove the mailbox again. */
export async function distrustDevices(tx: Tx, userId: number): Promise<void> {
  await tx.userDevice.updateMany({ where: { usuario_id: userId, confiable: true }, data: { confiable: false } });
}
