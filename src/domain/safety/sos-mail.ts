import type { SosIncident } from "../../db/models.js";
import type { Deps } from "../deps.js";
import { plainName } from "../mail/templates.js";
import { localDate, localTime } from "../time.js";

/** Who sent an SOS, as its mails name them. */
interface Sender {
  nombre: string;
  apellido: string;
  telefono: string;
}

/** A mail before the service signs it (serviceMail). */
interface Draft {
  destinatario: string;
  asunto: string;
  lineas: string[];
}

const ROLES: Record<string, string> = { pasajero: "pasajero", conductor: "conductor" };

/** "2026-03-10 10:00" in Bogotá. */
function bogota(date: Date): string {
  const { hour, minute } = localTime(date);
  return `${localDate(date)} ${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")} (hora de Colombia)`;
}

/** A map anyone can open at the position, without an account. */
const mapAt = ({ latitud, longitud }: SosIncident) =>
  `https://www.openstreetmap.org/?mlat=${latitud}&mlon=${longitud}#map=17/${latitud}/${longitud}`;

const nameOf = (sender: Sender) => plainName(`${sender.nombre} ${sender.apellido}`) ?? "Una persona";

/** The facts every SOS mail carries: when, where, and the link that follows the trip. */
const facts = (incident: SosIncident, link: string) => [
  `Hora: ${bogota(incident.creado_en)}`,
  `Posición: ${incident.latitud}, ${incident.longitud} — ${mapAt(incident)}`,
  `Sigue el viaje en vivo: ${link}`,
];

/** The subject of every mail about one incident names it, so that each is found by its number. */
const subject = (incident: SosIncident, what: string) => `SOS #${incident.id}: ${what}`;

/** To one of the sender's emergency contacts. */
export function contactMail(incident: SosIncident, sender: Sender, contact: { nombre: string; email: string }, link: string): Draft {
  const name = plainName(contact.nombre);
  return {
    destinatario: contact.email,
    asunto: subject(incident, `${nameOf(sender)} pidió ayuda`),
    lineas: [
      name ? `Hola ${name}:` : "Hola:",
      "",
      `${nameOf(sender)} te tiene como contacto de emergencia y acaba de enviar una alerta SOS durante un viaje. ` +
        "Nuestro equipo de operaciones ya fue avisado.",
      "",
      ...facts(incident, link),
      "",
      "Si crees que está en peligro, llama a la línea de emergencias 123.",
    ],
  };
}

/** To the operations team (SOS_EMAIL): who, the trip, and where to act. */
export const operationsMail = (deps: Pick<Deps, "safety">, incident: SosIncident, sender: Sender, to: string, link: string): Draft => ({
  destinatario: to,
  asunto: subject(incident, `${ROLES[incident.rol]} en el viaje ${incident.viaje_id}`),
  lineas: [
    `El ${ROLES[incident.rol]} ${nameOf(sender)} (usuario ${incident.usuario_id}, teléfono ${sender.telefono}) envió un SOS ` +
      `desde el viaje ${incident.viaje_id}.`,
    "",
    ...facts(incident, link),
    "",
    `Atiéndelo en la consola: ${deps.safety.publicUrl}/consola/sos`,
  ],
});

/** To SOS_ESCALATION_EMAIL, when nobody acknowledged it in time. */
export const escalationMail = (
  deps: Pick<Deps, "safety">,
  incident: SosIncident,
  sender: Sender,
  to: string,
  link: string,
  seconds: number,
): Draft => ({
  destinatario: to,
  asunto: subject(incident, `sin atender tras ${seconds} s`),
  lineas: [
    `Nadie ha atendido en ${seconds} segundos el SOS que el ${ROLES[incident.rol]} ${nameOf(sender)} (usuario ` +
      `${incident.usuario_id}, teléfono ${sender.telefono}) envió desde el viaje ${incident.viaje_id}.`,
    "",
    ...facts(incident, link),
    "",
    `Atiéndelo en la consola: ${deps.safety.publicUrl}/consola/sos`,
  ],
});
