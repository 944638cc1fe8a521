import type { Deps } from "../deps.js";
import { outage } from "../outage.js";
import { repeatPasses } from "../passes.js";

/** What the relay hands to the mail server: one outbox row. */
export interface QueuedMail {
  id: number;
  destinatario: string;
  asunto: string;
  cuerpo: string;
  creado_en: Date;
}

/** Sends one mail, giving up when `signal` aborts; rejects with MailRefused when retrying cannot help. */
export type SendMail = (mail: QueuedMail, signal: AbortSignal) => Promise<void>;

/** The mail server refused this mail for good (an unknown mailbox): it is not tried again. */
export class MailRefused extends Error {
  override name = "MailRefused";
}

export interface RelayOptions {
  send: SendMail;
  /** How often to look for due mail when nothing nudges the relay. */
  pollMs: number;
  /** Attempts before a mail is marked fallido. */
  maxAttempts: number;
  /** Wait before the first retry; it doubles with each attempt, up to MAX_RETRY_MS. */
  retryMs: number;
  /** Longest one send may take before it is abandoned. */
  sendTimeoutMs: number;
  /** How long stop() lets a send in flight finish before abandoning it. */
  stopWaitMs: number;
}

export interface MailRelay {
  /** Looks for due mail now; resolves once a pass that began after this call has ended. Never rejects. */
  nudge(): Promise<void>;
  /** No new sends; waits for the one in flight, abandoning it after `stopWaitMs`. */
  stop(): Promise<void>;
}

const BATCH = 10;
const MAX_RETRY_MS = 3600 * 1000;
const ERROR_MAX_CHARS = 300;

/** A claim outlasts the send's deadline and the writes around it several times over. */
const leaseFor = (sendTimeoutMs: number) => 3 * sendTimeoutMs + 60_000;

const retryDelayMs = (retryMs: number, attempt: number) => Math.min(retryMs * 2 ** (attempt - 1), MAX_RETRY_MS);

const describe = (error: unknown) =>
  (error instanceof Error ? error.message || error.name : String(error)).replace(/\s+/g, " ").slice(0, ERROR_MAX_CHARS);

/**
 * Sends the outbox. Every process may run one: a mail is sent by whoever claims it first (a
 * conditional update that only one can win), under a lease long enough to outlast the send, so a
 * process that dies mid-send leaves the mail to be tried again once the lease ends. A mail is
 * therefore sent at least once, twice only if a process dies between sending it and recording it.
 */
export function startMailRelay(deps: Pick<Deps, "db" | "clock" | "log">, options: RelayOptions): MailRelay {
  const { db, clock, log } = deps;
  const leaseMs = leaseFor(options.sendTimeoutMs);
  // Each logged when it starts failing and when it answers again, not at every failure.
  const server = outage(log, {
    failing: "mail relay: the mail server fails; mail waits in the outbox",
    back: "mail relay: the mail server answers again",
  });
  const database = outage(log, {
    failing: "mail relay: the database fails; mail waits in the outbox",
    back: "mail relay: the database answers again",
  });
  const stopping = new AbortController();

  /**
   * What is kept of a body once its mail will never be sent (sent, given up on or expired): mails
   * carry codes and links that follow a trip, which must not outlive their delivery in a table.
   */
  const SENT_BODY = "";

  /** Unclaimed, or claimed by someone whose lease has ended. */
  const unclaimed = (now: Date) => [{ reclamado_hasta: null }, { reclamado_hasta: { lte: now } }];

  /** Sends one due mail if this process wins it; false when the mail server is failing (try the rest later). */
  async function deliver(mail: QueuedMail & { intentos: number; vence_en: Date | null }): Promise<boolean> {
    const now = clock.now();
    // Still as it was read: nobody claimed or recorded it since.
    const untouched = { id: mail.id, estado: "pendiente", intentos: mail.intentos, OR: unclaimed(now) };
    if (mail.vence_en && mail.vence_en <= now) {
      const expired = await db.outboxMail.updateMany({ where: untouched, data: { estado: "vencido", cuerpo: SENT_BODY } });
      if (expired.count === 1) log.info({ correo_id: mail.id }, "mail relay: mail expired before it could be sent");
      return true;
    }
    const claim = await db.outboxMail.updateMany({
      where: untouched,
      data: { reclamado_hasta: new Date(now.getTime() + leaseMs), intentos: { increment: 1 } },
    });
    if (claim.count !== 1) return true;
    const attempt = mail.intentos + 1;
    try {
      await options.send(mail, AbortSignal.any([AbortSignal.timeout(options.sendTimeoutMs), stopping.signal]));
    } catch (error) {
      const ultimo_error = describe(error);
      const refused = error instanceof MailRefused;
      const last = refused || attempt >= options.maxAttempts;
      await db.outboxMail.updateMany({
        where: { id: mail.id, estado: "pendiente", intentos: attempt },
        data: last
          ? { estado: "fallido", ultimo_error, reclamado_hasta: null, cuerpo: SENT_BODY }
          : {
              ultimo_error,
              reclamado_hasta: null,
              proximo_intento: new Date(clock.now().getTime() + retryDelayMs(options.retryMs, attempt)),
            },
      });
      if (refused) {
        log.warn({ correo_id: mail.id, problem: ultimo_error }, "mail relay: the mail server refused a mail for good");
        // It answered: the refusal is about this mail, not the server.
        server.recovered();
        return true;
      }
      if (last) log.warn({ correo_id: mail.id, intentos: attempt, problem: ultimo_error }, "mail relay: gave up on a mail");
      if (!stopping.signal.aborted) server.failed("sends", ultimo_error);
      return false;
    }
    server.recovered();
    await db.outboxMail.updateMany({
      where: { id: mail.id, estado: "pendiente" },
      data: { estado: "enviado", enviado_en: clock.now(), reclamado_hasta: null, cuerpo: SENT_BODY },
    });
    return true;
  }

  /** Due mail, a batch at a time, until none is left or the mail server fails. */
  async function pass(stopped: () => boolean): Promise<void> {
    try {
      for (;;) {
        const now = clock.now();
        const due = await db.outboxMail.findMany({
          where: { estado: "pendiente", proximo_intento: { lte: now }, OR: unclaimed(now) },
          orderBy: [{ proximo_intento: "asc" }, { id: "asc" }],
          take: BATCH,
        });
        database.recovered();
        for (const mail of due) {
          if (stopped()) return;
          // A mail server that fails one mail would fail the rest too: they keep their attempts.
          if (!(await deliver(mail))) return;
        }
        if (due.length < BATCH) return;
      }
    } catch (error) {
      database.failed("passes", describe(error));
    }
  }

  const passes = repeatPasses(pass, options.pollMs);
  return {
    nudge: passes.nudge,
    async stop() {
      const abandon = setTimeout(() => stopping.abort(new Error("the service is stopping")), options.stopWaitMs);
      await passes.stop();
      clearTimeout(abandon);
    },
  };
}
