import { createHash, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { Actor } from "../actor.js";
import type { Tx } from "../../db/client.js";
import type { Deps } from "../deps.js";
import { RateLimitError, ValidationError } from "../errors.js";
import { queueMail } from "../mail/outbox.js";
import { plainName, serviceMail } from "../mail/templates.js";
import { email, optional, parseInput } from "../validation.js";
import { countWrongCode, deviceId, lockedUntil, trustDevice } from "./devices.js";
import { throttle } from "./throttle.js";

/*
 * The mobile app makes up a code, asks the service to e-mail it (email_service.php) and compares
 * what the person types with its own copy. The service keeps a hash of each code so that
 * verify_code.php checks it here too. Because the app chose the code, knowing it proves only that
 * the caller asked for it: a verified code trusts a device (which only picks the app's next screen)
 * and never verifies the account or signs anybody in.
 */

const CODE_TTL_MS = 10 * 60 * 1000;
/** Wrong tries one code takes before it is void. */
const MAX_ATTEMPTS = 5;

const hashCode = (address: string, code: string) => createHash("sha256").update(`${address}:${code}`).digest();

const code = () =>
  z
    .string({ error: "es obligatorio" })
    .trim()
    .regex(/^\d{4,8}$/, "debe tener de 4 a 8 dígitos");

/** The one mail email_service.php sends: fixed words, the code, and at most a plain name. */
const codeMail = (tx: Tx, to: string, name: string | null, value: string, expires: Date) =>
  serviceMail(tx, {
    destinatario: to,
    asunto: "Tu código de verificación",
    lineas: [
      name ? `Hola ${name}:` : "Hola:",
      "",
      `Tu código de verificación es ${value}. Vence en 10 minutos.`,
      "",
      "Si no lo pediste, ignora este correo: sin tu contraseña nadie puede entrar a tu cuenta.",
    ],
    vence_en: expires,
  });

const sendSchema = z.object({ email: email(), codigo: code(), nombre: optional(z.string().max(200, "admite como máximo 200 caracteres")) });

/**
 * E-mails the app's code to an address. An open door to anyone's inbox, so it is limited per
 * recipient and per client address, and the mail's words are fixed.
 */
export async function sendEmailCode(deps: Deps, actor: Actor, input: { email: string; codigo: string; nombre?: string | null }) {
  const { email: to, codigo, nombre } = parseInput(sendSchema, input);
  await throttle(deps.limits.emailCodesPerAddress, actor.address ?? "desconocida", "Demasiados códigos pedidos desde tu conexión");
  await throttle(deps.limits.emailCodesPerRecipient, to, "Demasiados códigos enviados a este correo");
  const now = deps.clock.now();
  const expires = new Date(now.getTime() + CODE_TTL_MS);
  const account = await deps.db.user.findUnique({ where: { email: to, eliminado_en: null }, select: { nombre: true } });
  const mail = await deps.db.$transaction(async (tx) => {
    // Only the newest code counts.
    await tx.emailCode.updateMany({ where: { email: to, usado_en: null }, data: { usado_en: now } });
    await tx.emailCode.create({
      data: { email: to, codigo_hash: hashCode(to, codigo).toString("hex"), expira_en: expires, creado_en: now },
    });
    // An account's own name is ours to use; otherwise the caller's, made plain.
    return queueMail(tx, now, await codeMail(tx, to, plainName(account?.nombre ?? nombre), codigo, expires));
  });
  deps.onMailQueued(mail);
}

const verifySchema = z.object({
  email: email(),
  codigo: code(),
  device_uuid: optional(deviceId()),
  mark_device_trusted: optional(z.boolean({ error: "debe ser verdadero o falso" })),
});

const lockMessage = (until: Date, now: Date) => {
  const minutes = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
  return new RateLimitError(
    `Este dispositivo quedó bloqueado por demasiados códigos incorrectos; intenta de nuevo en ${minutes} minutos`,
    Math.ceil((until.getTime() - now.getTime()) / 1000),
  );
};

/**
 * Checks a code e-mailed by sendEmailCode. With `mark_device_trusted` and the device's id, the
 * device becomes trusted for the account. Wrong codes count against the code and the device.
 */
export async function verifyEmailCode(
  deps: Deps,
  input: { email: string; codigo: string; device_uuid?: string | null; mark_device_trusted?: boolean | null },
): Promise<{ dispositivo_confiable: boolean }> {
  const { email: address, codigo, device_uuid, mark_device_trusted } = parseInput(verifySchema, input);
  const now = deps.clock.now();
  const account = await deps.db.user.findUnique({ where: { email: address, eliminado_en: null }, select: { id: true } });
  const device = account && device_uuid ? { userId: account.id, id: device_uuid } : null;
  if (device) {
    const until = await lockedUntil(deps.db, device.userId, device.id, now);
    if (until) throw lockMessage(until, now);
  }
  const outcome = await deps.db.$transaction(async (tx) => {
    const pending = await tx.emailCode.findFirst({ where: { email: address, usado_en: null }, orderBy: { creado_en: "desc" } });
    if (!pending || pending.expira_en <= now || pending.intentos >= MAX_ATTEMPTS) return { result: "expired" as const };
    if (!timingSafeEqual(Buffer.from(pending.codigo_hash, "hex"), hashCode(address, codigo))) {
      await tx.emailCode.update({ where: { id: pending.id }, data: { intentos: { increment: 1 } } });
      const locked = device ? await countWrongCode(tx, device.userId, device.id, now, deps.deviceLockMs) : null;
      return { result: "wrong" as const, locked };
    }
    await tx.emailCode.update({ where: { id: pending.id }, data: { usado_en: now } });
    if (!device || !mark_device_trusted) return { result: "right" as const, trusted: false };
    await trustDevice(tx, device.userId, device.id, now);
    return { result: "right" as const, trusted: true };
  });
  if (outcome.result === "expired") {
    throw new ValidationError("venció, ya se usó, se intentó demasiadas veces o no se pidió; solicita uno nuevo", "codigo");
  }
  if (outcome.result === "wrong") {
    if (outcome.locked) throw lockMessage(outcome.locked, now);
    throw new ValidationError("no es correcto", "codigo");
  }
  return { dispositivo_confiable: outcome.trusted };
}
