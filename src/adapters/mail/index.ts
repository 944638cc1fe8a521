import type { Config } from "../../config.js";
import type { Deps, OutgoingMail } from "../../domain/deps.js";
import { startMailRelay, type MailRelay } from "../../domain/mail/relay.js";
import { smtpSender } from "./smtp.js";

export interface MailDelivery {
  /** A mail was committed to the outbox. */
  queued(mail: OutgoingMail): void;
  /** Begins sending the outbox, once the service's start-up work is done. */
  start(): void;
  /** Stops sending; before the database closes. */
  stop(): Promise<void>;
}

type MailConfig = Pick<
  Config,
  "SMTP_URL" | "MAIL_FROM" | "MAIL_POLL_MS" | "MAIL_MAX_ATTEMPTS" | "MAIL_RETRY_S" | "SMTP_TIMEOUT_MS" | "SHUTDOWN_TIMEOUT_MS" | "NODE_ENV"
>;

/**
 * How outgoing mail leaves: with SMTP_URL, a relay sends the outbox and is nudged by each mail
 * queued here; without it mail stays in the outbox, printed to the log in development.
 */
export function mailDelivery(config: MailConfig, deps: Pick<Deps, "db" | "clock" | "log">): MailDelivery {
  const { log } = deps;
  if (!config.SMTP_URL || !config.MAIL_FROM) {
    return {
      queued: (mail) => {
        if (config.NODE_ENV === "development") log.info({ mail }, "mail queued in the outbox");
      },
      start: () => {
        if (config.NODE_ENV === "production") log.warn({}, "SMTP_URL is not set: mail stays in the outbox, unsent");
      },
      stop: async () => {},
    };
  }
  const smtp = smtpSender({ url: config.SMTP_URL, from: config.MAIL_FROM, timeoutMs: config.SMTP_TIMEOUT_MS });
  let relay: MailRelay | null = null;
  return {
    queued: () => void relay?.nudge(),
    start: () => {
      relay ??= startMailRelay(deps, {
        send: smtp.send,
        pollMs: config.MAIL_POLL_MS,
        maxAttempts: config.MAIL_MAX_ATTEMPTS,
        retryMs: config.MAIL_RETRY_S * 1000,
        sendTimeoutMs: config.SMTP_TIMEOUT_MS,
        stopWaitMs: config.SHUTDOWN_TIMEOUT_MS,
      });
    },
    stop: async () => {
      await relay?.stop();
      smtp.close();
    },
  };
}
