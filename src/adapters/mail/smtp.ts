import { createTransport, type NodemailerError } from "nodemailer";
import { MailRefused, type SendMail } from "../../domain/mail/relay.js";

/** Refusals of this mail in particular (its recipient, its content), as opposed to the server's state. */
const MAIL_REFUSALS = new Set(["EENVELOPE", "EMESSAGE"]);

/** The domain of an address, alone or as "Name <address>". */
const domainOf = (address: string) => /@([^\s<>@]+)>?\s*$/.exec(address)?.[1] ?? "localhost";

/**
 * Plain-text mail from MAIL_FROM through the SMTP server of SMTP_URL, over one pooled connection
 * (the relay sends one mail at a time). Each wait (connecting, the greeting, any reply) is bounded
 * by SMTP_TIMEOUT_MS, and so is each whole send, through the relay's signal.
 */
export function smtpSender(settings: { url: string; from: string; timeoutMs: number }) {
  const { url, from, timeoutMs } = settings;
  const domain = domainOf(from);
  const transport = createTransport({
    url,
    pool: true,
    maxConnections: 1,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });

  const send: SendMail = async (mail, signal) => {
    try {
      await transport.sendMail({
        from,
        to: mail.destinatario,
        subject: mail.asunto,
        text: mail.cuerpo,
        // The same for every attempt at one row (and unlike any row of an earlier database), so a
        // receiver can drop the copy sent again when a process died before recording the first.
        messageId: `<correo-${mail.id}.${mail.creado_en.getTime().toString(36)}@${domain}>`,
        signal,
      });
    } catch (error) {
      const failure = error as NodemailerError;
      // The code and the server's reply or the address it could not reach; nodemailer leaves the credentials out.
      const problem = `${failure.code ?? failure.name}: ${failure.message}`;
      throw failure.permanent && MAIL_REFUSALS.has(failure.code ?? "") ? new MailRefused(problem) : new Error(problem);
    }
  };
  return { send, close: () => transport.close() };
}
