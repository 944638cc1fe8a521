import { randomUUID } from "node:crypto";
import type { Client } from "graphql-ws";
import type { ReceivedMail, TestSmtp } from "../../test/support/smtp.js";
import type { Account } from "./accounts.js";
import { type Api, percentile } from "./client.js";
import type { Random } from "./random.js";
import { type Line, none, percentiles } from "./report.js";
import { untilSettled } from "./retry.js";
import type { Stack } from "./stack.js";
import { keepSubscribed } from "./ws.js";

/*
 * SOSs in the city: passengers send one from some of their trips while the chaos goes on, retrying
 * with the same Idempotency-Key on another process until an answer settles it; an operator's
 * console follows sosAlerts; nobody acknowledges them, so each is escalated. At the end each
 * acknowledged SOS must be one incident, its three mails (the passenger's emergency contact,
 * operations, escalation) must have left once each, and the console must have shown it.
 */

const SEND_SOS = "/user/sos.php";
/** Of a passenger's trips, the share from which they send an SOS once a driver took it. */
const SOS_SHARE = 0.25;
const ALERTS = "subscription { sosAlerts { id } }";
const OPERATIONS = "operaciones@soak.test";
const ESCALATION = "guardia@soak.test";
const contactOf = (usuarioId: number) => `contacto${usuarioId}@soak.test`;

/** What the service processes need for SOSs to leave as mail through the run's SMTP server, and to escalate soon. */
export const sosSettings = (smtp: TestSmtp): Record<string, string> => ({
  SMTP_URL: smtp.url,
  MAIL_FROM: "Soak <no-responder@soak.test>",
  MAIL_POLL_MS: "1000",
  MAIL_RETRY_S: "1",
  // A relay killed mid-send leaves its mail to the others after 3 × this plus a minute.
  SMTP_TIMEOUT_MS: "2000",
  SOS_EMAIL: OPERATIONS,
  SOS_ESCALATION_EMAIL: ESCALATION,
  SOS_ESCALATE_S: "8",
});

/** Gives every passenger one emergency contact with an e-mail (their API comes in another branch): straight into the database. */
export const addContacts = (stack: Stack) =>
  stack.sql(
    "INSERT INTO contactos_emergencia (usuario_id, nombre, email, creado_en) " +
      "SELECT id, 'Contacto ' || id, 'contacto' || id || '@soak.test', now() FROM usuarios WHERE tipo_usuario = 'pasajero'",
  );

interface SosRecord {
  tripId: number;
  usuarioId: number;
  /** performance.now() of the first call. */
  sentAt: number;
  outcome: "acknowledged" | "refused" | "unanswered";
  refusal?: string;
  incidentId?: number;
  calls: number;
}

/** The city's SOSs as their senders lived them, and what the operators' console heard. */
export class SosDesk {
  readonly records: SosRecord[] = [];
  /** performance.now() when the console first heard of each incident, and how many times it was sent. */
  readonly heardAt = new Map<number, number>();
  readonly heard = new Map<number, number>();
  pending = 0;

  constructor(
    private readonly api: Api,
    private readonly random: Random,
  ) {}

  /** Whether a trip's passenger will send an SOS from it. */
  chooses = (random: Random) => random.next() < SOS_SHARE;

  /** The operators' console: sosAlerts, kept open across processes. */
  watch(client: Client): () => void {
    return keepSubscribed<{ sosAlerts: { id: number } }>(
      client,
      this.api.census,
      "sosAlerts",
      { query: ALERTS, variables: {} },
      {
        next: ({ sosAlerts }) => {
          if (!this.heardAt.has(sosAlerts.id)) this.heardAt.set(sosAlerts.id, performance.now());
          this.heard.set(sosAlerts.id, (this.heard.get(sosAlerts.id) ?? 0) + 1);
        },
      },
    );
  }

  /** The passenger of an active trip asks for help, as the app would: one key, retried elsewhere until settled. */
  async send(account: Account, tripId: number, halted: () => boolean): Promise<void> {
    this.pending++;
    const record: SosRecord = { tripId, usuarioId: account.id, sentAt: performance.now(), outcome: "unanswered", calls: 0 };
    this.records.push(record);
    const headers = { "idempotency-key": randomUUID(), authorization: `Bearer ${account.token}` };
    const body = { usuario_id: account.id, trip_id: tripId, latitud: 6.245, longitud: -75.575 };
    try {
      const { answer, answers } = await untilSettled((avoid) => this.api.post(SEND_SOS, body, { headers, avoid }), {
        deadlineMs: 120_000,
        random: this.random,
        halted,
      });
      record.calls = answers.length;
      if (!answer) return;
      const incident = (answer.body as { incidente?: { id: number } }).incidente;
      if (answer.status === 200 && incident) {
        record.outcome = "acknowledged";
        record.incidentId = incident.id;
      } else {
        record.outcome = "refused";
        record.refusal = `${answer.status} ${answer.body.message ?? ""}`.slice(0, 120);
      }
    } finally {
      this.pending--;
    }
  }
}

interface StoredIncident {
  id: number;
  tripId: number;
  usuarioId: number;
  escalated: boolean;
  steps: number;
}

interface StoredMail {
  id: number;
  incidentId: number;
  to: string;
  estado: string;
}

async function storedIncidents(stack: Stack): Promise<StoredIncident[]> {
  const rows = await stack.sql(
    "SELECT i.id, i.viaje_id, i.usuario_id, i.escalado_en IS NOT NULL, " +
      "(SELECT count(*) FROM historial_incidentes_sos h WHERE h.incidente_id = i.id AND h.tipo = 'escalado') FROM incidentes_sos i ORDER BY i.id",
  );
  if (rows === "") return [];
  return rows.split("\n").map((row) => {
    const [id, tripId, usuarioId, escalated, steps] = row.split("|");
    return { id: Number(id), tripId: Number(tripId), usuarioId: Number(usuarioId), escalated: escalated === "t", steps: Number(steps) };
  });
}

async function storedMails(stack: Stack): Promise<StoredMail[]> {
  const rows = await stack.sql("SELECT id, asunto, destinatario, estado FROM correos_salientes WHERE asunto LIKE 'SOS #%' ORDER BY id");
  if (rows === "") return [];
  return rows.split("\n").map((row) => {
    const [id, subject, to, estado] = row.split("|");
    return { id: Number(id), incidentId: incidentOf(subject!), to: to!, estado: estado! };
  });
}

/** Every SOS mail's subject starts with "SOS #<id>:". */
const incidentOf = (subject: string) => Number(/^SOS #(\d+):/.exec(subject)?.[1] ?? Number.NaN);

/**
 * Waits, up to `withinMs`, until every incident is escalated and every SOS mail has left (the
 * relays' claims of a process killed mid-send lapse, and other processes send them).
 */
export async function sosSettled(stack: Stack, withinMs: number): Promise<void> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    const [incidents, mails] = await Promise.all([storedIncidents(stack), storedMails(stack)]);
    if (incidents.every((incident) => incident.escalated) && mails.every((mail) => mail.estado !== "pendiente")) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** The incidents an operator's list shows (sosIncidents, every page), for those the live console may have missed. */
async function listed(api: Api, admin: Account): Promise<Set<number>> {
  const ids = new Set<number>();
  for (let page = 1; ; page++) {
    const query = `{ sosIncidents(page: ${page}, per_page: 100) { ... on PaginaIncidentesSos { items { id } pagination { total_pages } } } }`;
    const answer = await api.post(
      "/graphql",
      { query },
      { headers: { authorization: `Bearer ${admin.token}` }, label: "POST /graphql sosIncidents" },
    );
    const list = (answer.body as { data?: { sosIncidents?: { items: Array<{ id: number }>; pagination: { total_pages: number } } } }).data
      ?.sosIncidents;
    if (!list) throw new Error(`the list of incidents could not be read: ${answer.outcome}`);
    for (const item of list.items) ids.add(item.id);
    if (page >= list.pagination.total_pages) return ids;
  }
}

/** The report's lines about SOSs. */
export async function sosLines(desk: SosDesk, stack: Stack, smtp: TestSmtp, api: Api, admin: Account): Promise<Line[]> {
  const [incidents, mails, inList] = await Promise.all([storedIncidents(stack), storedMails(stack), listed(api, admin)]);
  const byId = new Map(incidents.map((incident) => [incident.id, incident]));
  const acknowledged = desk.records.filter((record) => record.outcome === "acknowledged");
  const lost = acknowledged.filter((record) => {
    const stored = byId.get(record.incidentId!);
    return stored?.tripId !== record.tripId || stored.usuarioId !== record.usuarioId;
  });
  const perSender = new Map<string, number[]>();
  for (const incident of incidents) {
    const key = `${incident.tripId}/${incident.usuarioId}`;
    perSender.set(key, [...(perSender.get(key) ?? []), incident.id]);
  }
  const duplicated = [...perSender].filter(([, ids]) => ids.length > 1);

  // Each incident's three mails: one row each, sent, and received once (a resend keeps its Message-ID).
  const received = (incidentId: number, to: string) =>
    smtp.received.filter((mail: ReceivedMail) => incidentOf(mail.subject) === incidentId && mail.to.includes(to));
  const mailProblems: string[] = [];
  let resent = 0;
  for (const incident of incidents) {
    for (const to of [contactOf(incident.usuarioId), OPERATIONS, ESCALATION]) {
      const rows = mails.filter((mail) => mail.incidentId === incident.id && mail.to === to);
      const arrived = received(incident.id, to);
      const messageIds = new Set(arrived.map((mail) => mail.messageId));
      resent += arrived.length - messageIds.size;
      if (rows.length !== 1 || rows[0]!.estado !== "enviado" || messageIds.size !== 1) {
        mailProblems.push(
          `#${incident.id} → ${to}: ${rows.length} rows (${rows.map((row) => row.estado).join(", ")}), ${messageIds.size} received`,
        );
      }
    }
  }
  const notEscalatedOnce = incidents.filter((incident) => !incident.escalated || incident.steps !== 1);
  const unseen = incidents.filter((incident) => !desk.heardAt.has(incident.id) && !inList.has(incident.id));
  const liveDelays = acknowledged.flatMap((record) => {
    const heard = desk.heardAt.get(record.incidentId!);
    return heard === undefined ? [] : [Math.max(0, heard - record.sentAt)];
  });
  const refused = desk.records.filter((record) => record.outcome === "refused");
  const reasons = [...new Set(refused.map((record) => record.refusal))].slice(0, 3).join("; ");
  const p99 = percentile(liveDelays, 99);
  return [
    {
      what: "SOSs acknowledged (200 with an incident)",
      measured: String(acknowledged.length),
      note:
        `of ${desk.records.length} sent during the chaos; ${refused.length} refused${reasons ? ` (${reasons})` : ""}, ` +
        `${desk.records.filter((record) => record.outcome === "unanswered").length} never settled; ${incidents.length} incidents stored`,
    },
    none("SOS lost (acknowledged, not in the database)", lost.length, lost.map((record) => `#${record.incidentId}`).join(", ")),
    none(
      "SOS duplicated (two incidents for one trip and sender)",
      duplicated.length,
      duplicated.map(([key, ids]) => `${key}: ${ids.join(", ")}`).join("; "),
    ),
    none(
      "SOS mails not sent exactly once (contact, operations, escalation)",
      mailProblems.length,
      [...mailProblems.slice(0, 4), `${mails.length} mails; ${resent} received again with the same Message-ID`].join("; "),
    ),
    none("SOS not escalated exactly once", notEscalatedOnce.length, notEscalatedOnce.map((incident) => `#${incident.id}`).join(", ")),
    none("SOS the console never showed (live or in its list)", unseen.length, unseen.map((incident) => `#${incident.id}`).join(", ")),
    {
      what: "SOS sent → on the operators' console (sosAlerts)",
      measured: percentiles(liveDelays),
      target: "p99 < 2 s",
      ok: liveDelays.length > 0 && p99 < 2000,
      note: `${liveDelays.length} of ${acknowledged.length} heard live; ${[...desk.heard.values()].reduce((a, b) => a + b, 0)} alerts for ${desk.heard.size} incidents, each shown once by its id`,
    },
  ];
}
