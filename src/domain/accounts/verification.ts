import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { Tx } from "../../db/client.js";
import type { Deps, OutgoingMail } from "../deps.js";
import { InvalidStateError, RateLimitError, ValidationError } from "../errors.js";
import { queueMail } from "../mail/outbox.js";
import { plainName, serviceMail } from "../mail/templates.js";
import { email, parseInput } from "../validation.js";
import { getUserByEmail } from "./users.js";
import { announce, createNotification } from "../notifications/notifications.js";

const CODE_TTL_MS = 10 * 60 * 1000;
const MAX_ATTEMPTS = 5;
const RESEND_INTERVAL_MS = 60 * 1000;

// The user id salts the hash so equal codes of different users do not share a hash.
const hashCode = (userId: number, code: string) => createHash("sha256").update(`${userId}:${code}`).digest();

/** Creates a fresh 6-digit code, voids the older ones and queues the e-mail that carries it. */
export async function issueVerificationCode(
  tx: Tx,
  deps: Pick<Deps, "clock">,
  user: { id: number; email: string; nombre: string },
): Promise<OutgoingMail> {
  const now = deps.clock.now();
  const code = randomInt(0, 1_000_000).toString().padStart(6, "0");
  const expira_en = new Date(now.getTime() + CODE_TTL_MS);
  await tx.emailVerification.updateMany({ where: { usuario_id: user.id, usado_en: null }, data: { usado_en: now } });
  await tx.emailVerification.create({
    data: {
      usuario_id: user.id,
      codigo_hash: hashCode(user.id, code).toString("hex"),
      expira_en,
      creado_en: now,
    },
  });
  // Anyone may sign up with any address, so the name is greeted only as plain words.
  const name = plainName(user.nombre);
  const mail = await serviceMail(tx, {
    destinatario: user.email,
    asunto: "Tu código de verificación",
    lineas: [`${name ? `Hola ${name}, tu` : "Tu"} código de verificación es ${code}. Vence en 10 minutos.`],
    vence_en: expira_en,
  });
  return queueMail(tx, now, mail);
}

const verifySchema = z.object({
  email: email(),
  codigo: z
    .string({ error: "es obligatorio" })
    .trim()
    .regex(/^\d{6}$/, "debe tener 6 dígitos"),
});

/** Checks a code and marks the account verified. */
export async function verifyEmail(deps: Deps, input: { email: string; codigo: string }) {
  const { email: address, codigo } = parseInput(verifySchema, input);
  const user = await getUserByEmail(deps.db, address);
  if (user.es_verificado) return user;
  const now = deps.clock.now();
  const outcome = await deps.db.$transaction(async (tx) => {
    const pending = await tx.emailVerification.findFirst({
      where: { usuario_id: user.id, usado_en: null },
      orderBy: { creado_en: "desc" },
    });
    if (!pending || pending.expira_en <= now) return "expired" as const;
    if (pending.intentos >= MAX_ATTEMPTS) return "exhausted" as const;
    if (!timingSafeEqual(Buffer.from(pending.codigo_hash, "hex"), hashCode(user.id, codigo))) {
      await tx.emailVerification.update({ where: { id: pending.id }, data: { intentos: { increment: 1 } } });
      return "wrong" as const;
    }
    await tx.emailVerification.update({ where: { id: pending.id }, data: { usado_en: now } });
    const notification = await createNotification(tx, user.id, {
      tipo: "cuenta_verificada",
      titulo: "Correo verificado",
      mensaje: "Tu correo quedó verificado.",
    });
    return { verified: await tx.user.update({ where: { id: user.id }, data: { es_verificado: true } }), notification };
  });
  if (outcome === "expired") throw new ValidationError("El código venció o ya se usó; solicita uno nuevo", "codigo");
  if (outcome === "exhausted")
    throw new RateLimitError("Demasiados intentos con este código; solicita uno nuevo", RESEND_INTERVAL_MS / 1000);
  if (outcome === "wrong") throw new ValidationError("no es correcto", "codigo");
  announce(deps, outcome.notification);
  return outcome.verified;
}

const resendSchema = z.object({ email: email() });

/** Sends a new code, at most one a minute. */
export async function resendVerificationCode(deps: Deps, input: { email: string }): Promise<void> {
  const { email: address } = parseInput(resendSchema, input);
  const user = await getUserByEmail(deps.db, address);
  if (user.es_verificado) throw new InvalidStateError("La cuenta ya está verificada");
  const now = deps.clock.now();
  const last = await deps.db.emailVerification.findFirst({
    where: { usuario_id: user.id },
    orderBy: { creado_en: "desc" },
  });
  const wait = last ? last.creado_en.getTime() + RESEND_INTERVAL_MS - now.getTime() : 0;
  if (wait > 0) {
    const seconds = Math.ceil(wait / 1000);
    throw new RateLimitError(`Espera ${seconds} segundos antes de pedir otro código`, seconds);
  }
  const mail = await deps.db.$transaction((tx) => issueVerificationCode(tx, deps, user));
  deps.onMailQueued(mail);
}
