import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A mail as the test SMTP server received it, parsed. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  messageId: string | null;
  headers: Map<string, unknown>;
}

export interface TestSmtp {
  port: number;
  /** `smtp://` URL of this server, for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** Resolves with the first mail (already received or still to come) that matches. */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** While held, the server takes each mail's data but answers only once released. */
  hold(): void;
  release(): void;
  /** Mails taken while held and not answered yet. */
  holding(): number;
  /** While set, each mail's data is refused with this reply (4xx: try later, 5xx: never); null accepts again. */
  refuse(responseCode: number | null): void;
  close(): Promise<void>;
}

/**
 * A real SMTP server in the test process (smtp-server), on a free port or the one given, that keeps
 * every mail it accepts. It accepts any login, so SMTP_URL may carry credentials.
 */
export async function startSmtp(options: { port?: number } = {}): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const waiters = new Set<{ match: (mail: ReceivedMail) => boolean; resolve: (mail: ReceivedMail) => void }>();
  let held: Array<() => void> | null = null;
  let refusing: number | null = null;

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth: (_auth, _session, callback) => callback(null, { user: "prueba" }),
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          if (refusing) {
            callback(Object.assign(new Error("refused by the test server"), { responseCode: refusing }));
            return;
          }
          const mail: ReceivedMail = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : null,
            messageId: parsed.messageId ?? null,
            headers: parsed.headers,
          };
          const accept = () => {
            received.push(mail);
            for (const waiter of waiters) {
              if (waiter.match(mail)) {
                waiters.delete(waiter);
                waiter.resolve(mail);
              }
            }
            callback();
          };
          if (held) held.push(accept);
          else accept();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  // A client that drops its connection mid-mail (a send it gave up on) is its own business.
  server.on("error", () => undefined);
  const port = (server.server.address() as AddressInfo).port;

  return {
    port,
    url: `smtp://prueba:clave@127.0.0.1:${port}`,
    received,
    waitFor(match, timeoutMs = 15_000) {
      const found = received.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve };
        waiters.add(waiter);
        setTimeout(() => {
          if (waiters.delete(waiter)) reject(new Error(`no matching mail within ${timeoutMs} ms; received ${received.length}`));
        }, timeoutMs).unref();
      });
    },
    hold() {
      held ??= [];
    },
    release() {
      const pending = held ?? [];
      held = null;
      for (const accept of pending) accept();
    },
    holding: () => held?.length ?? 0,
    refuse(responseCode) {
      refusing = responseCode;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first run of 4 to 8 digits in a mail's text: the code it carries. */
export const codeIn = (mail: ReceivedMail): string => {
  const code = /\b(\d{4,8})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code in mail: ${mail.text}`);
  return code;
};
