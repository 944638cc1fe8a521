import type { Db, Tx } from "../../db/client.js";
import { appSetting } from "../settings.js";
import type { OutgoingMail } from "../deps.js";

const NAME_MAX = 30;

/**
 * A name someone typed, made safe to greet with: letters only (dots and underscores of an e-mail's
 * first part become spaces), at most a few short words. No link, number or markup of the caller's
 * reaches the inbox.
 */
export function plainName(value: string | undefined): string | null {
  if (!value) return null;
  const words = value
    .replace(/[._\s]+/g, " ")
    .replace(/[^\p{L}\p{M}' -]/gu, "")
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 3);
  let name = "";
  for (const word of words) {
    if (`${name} ${word}`.trim().length > NAME_MAX) break;
    name = `${name} ${word}`.trim();
  }
  return name || null;
}

/**
 * A mail of the service: its fixed lines, signed with the platform's name and, when an
 * administrator set one, the support address (the app settings app_nombre and correo_soporte).
 */
export async function serviceMail(
  db: Db | Tx,
  mail: { destinatario: string; asunto: string; lineas: string[]; vence_en?: Date },
): Promise<OutgoingMail> {
  const name = await appSetting(db, "app_nombre");
  const support = await appSetting(db, "correo_soporte");
  const signature = ["", `— ${name}`, ...(support ? [`¿Dudas? Escríbenos a ${support}`] : [])];
  return {
    destinatario: mail.destinatario,
    asunto: `${mail.asunto} · ${name}`,
    cuerpo: [...mail.lineas, ...signature].join("\n"),
    ...(mail.vence_en ? { vence_en: mail.vence_en } : {}),
  };
}
