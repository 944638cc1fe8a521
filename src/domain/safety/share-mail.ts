import type { Tx } from "../../db/client.js";
import type { OutgoingMail } from "../deps.js";
import { plainName, serviceMail } from "../mail/templates.js";
import { SHARE_AFTER_END_MS } from "./share-links.js";
import { firstName } from "../accounts/names.js";

/** The mail that hands a trip's link to one of its sharer's emergency contacts. */
export function shareMail(
  tx: Tx,
  { contact, sharer, url }: { contact: { nombre: string; email: string }; sharer: { nombre: string }; url: string },
): Promise<OutgoingMail> {
  // Names people typed: only their letters reach the inbox.
  const who = plainName(firstName(sharer.nombre) ?? undefined) ?? "Uno de tus contactos";
  const greeting = plainName(contact.nombre);
  return serviceMail(tx, {
    destinatario: contact.email,
    asunto: `${who} comparte su viaje contigo`,
    lineas: [
      greeting ? `Hola ${greeting}:` : "Hola:",
      "",
      `${who} te eligió como contacto de emergencia y comparte contigo el viaje que está haciendo, para que lo sigas en vivo: ` +
        "el estado del viaje, quién conduce, el vehículo y su placa, dónde va y cuándo se espera que llegue.",
      "",
      url,
      "",
      `El enlace deja de mostrar el viaje ${SHARE_AFTER_END_MS / 60_000} minutos después de que termine, o antes si ${who} ` +
        "deja de compartirlo. Cualquiera que tenga el enlace puede ver el viaje: no lo reenvíes.",
    ],
  });
}
