import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { Tx } from "../../db/client.js";
import type { Deps, OutgoingMail } from "../deps.js";
import { ValidationError } from "../errors.js";
import { queueMail } from "../mail/outbox.js";
import { plainName, serviceMail } from "../mail/templates.js";
import { email, parseInput } from "../validation.js";
import type { Actor } from "../actor.js";
import { assertPasswordPolicy, hashPassword } from "./password.js";
import { announceRevoked, revokeUserAccess } from "./sessions.js";
import { throttle } from "./throttle.js";

/*
 * People an administrator or a company brings in (a company's managers) never get a password in a
 * mail: they get a single-use code that lets them choose one, valid for three days. Someone who
 * forgot theirs asks for such a code too (requestPasswordReset).
 */

const CODE_TTL_MS = 72 * 3600 * 1000;
// Crockford's base32: no I, L, O or U to misread. 16 characters are 80 random bits.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

const hashCode = (code: string) => createHash("sha256").update(code).digest("hex");

/** A code as people type it: any case, with or without the dashes between its groups of four. */
const normalized = (code: string) => code.toUpperCase().replace(/[\s-]/g, "");

function newCode(): string {
  const bytes = randomBytes(16);
  const characters = [...bytes].map((byte) => ALPHABET[byte & 31]);
  return characters.join("").replace(/(.{4})(?=.)/g, "$1-");
}

/** Voids the account's earlier codes, stores a new one's hash and queues the mail that carries it. */
export async function issuePasswordSetup(
  tx: Tx,
  deps: Pick<Deps, "clock" | "safety">,
  user: { id: number; email: string; nombre: string },
  why: string,
): Promise<OutgoingMail> {
  const now = deps.clock.now();
  const code = newCode();
  const expira_en = new Date(now.getTime() + CODE_TTL_MS);
  await tx.passwordSetup.updateMany({ where: { usuario_id: user.id, usado_en: null }, data: { usado_en: now } });
  await tx.passwordSetup.create({ data: { usuario_id: user.id, codigo_hash: hashCode(normalized(code)), expira_en, creado_en: now } });
  const name = plainName(user.nombre);
  const mail = await serviceMail(tx, {
    destinatario: user.email,
    asunto: "Crea tu contraseña",
    lineas: [
      name ? `Hola ${name}:` : "Hola:",
      "",
      why,
      "",
      `Abre ${deps.safety.publicUrl}/consola/, elige «Crear mi contraseña» y escribe este código: ${code}`,
      "El código sirve una sola vez y vence en 3 días. Nunca te pediremos tu contraseña por correo.",
    ],
    vence_en: expira_en,
  });
  return queueMail(tx, now, mail);
}

const redeemSchema = z.object({ email: email(), codigo: z.string({ error: "es obligatorio" }).max(40, "no es un código válido") });

const invalidCode = () => new ValidationError("venció, ya se usó o no es correcto; pide que te envíen uno nuevo", "codigo");

/**
 * Sets the password a code allows, once: the code proved the inbox, so the address counts as
 * verified. Every session the account had ends, on every device, as when a password is changed.
 */
export async function choosePassword(deps: Deps, input: { email: string; codigo: string; password: string }) {
  const { email: address, codigo } = parseInput(redeemSchema, input);
  const now = deps.clock.now();
  const setup = await deps.db.passwordSetup.findUnique({
    where: { codigo_hash: hashCode(normalized(codigo)) },
    include: { usuario: { select: { id: true, email: true, nombre: true, apellido: true } } },
  });
  if (!setup || setup.usado_en || setup.expira_en <= now || setup.usuario.email !== address) throw invalidCode();
  await assertPasswordPolicy(input.password, setup.usuario);
  const password_hash = await hashPassword(input.password, deps.bcryptCost);
  const { user, revoked } = await deps.db.$transaction(async (tx) => {
    // Two redemptions of one code at the same moment: only one finds it unused.
    const { count } = await tx.passwordSetup.updateMany({ where: { id: setup.id, usado_en: null }, data: { usado_en: now } });
    if (count === 0) throw invalidCode();
    return {
      user: await tx.user.update({ where: { id: setup.usuario_id }, data: { password_hash, es_verificado: true } }),
      revoked: await revokeUserAccess(tx, setup.usuario_id, now),
    };
  });
  announceRevoked(deps, revoked);
  return user;
}

const resetSchema = z.object({ email: email() });

/**
 * Someone who forgot their password asks for a code to choose a new one (choosePassword). The
 * answer is the same whether or not the address has an account, so that it tells nobody who has
 * one; like the codes the app mails, it is limited per client address and per recipient.
 */
export async function requestPasswordReset(deps: Deps, actor: Actor, input: { email: string }): Promise<void> {
  const { email: to } = parseInput(resetSchema, input);
  await throttle(deps.limits.emailCodesPerAddress, actor.address ?? "desconocida", "Demasiados códigos pedidos desde tu conexión");
  await throttle(deps.limits.emailCodesPerRecipient, to, "Demasiados códigos enviados a este correo");
  const account = await deps.db.user.findFirst({
    where: { email: to, eliminado_en: null },
    select: { id: true, email: true, nombre: true },
  });
  if (!account) return;
  const why = "Pediste elegir una contraseña nueva. Si no fuiste tú, ignora este correo: tu contraseña sigue siendo la misma.";
  const mail = await deps.db.$transaction((tx) => issuePasswordSetup(tx, deps, account, why));
  deps.onMailQueued(mail);
}
