#!/usr/bin/env node
// `npm run mail:catch [-- <port>]`: an SMTP server on 127.0.0.1 (port 1025 unless given) that prints
// each mail it receives, to read locally what the service sends. Start the service with
// SMTP_URL=smtp://127.0.0.1:1025 MAIL_FROM=no-responder@localhost.
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

const port = Number(process.argv[2] ?? 1025);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`usage: npm run mail:catch -- [port]; "${process.argv[2]}" is not a port`);
  process.exit(1);
}

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  // Any login is accepted, so an SMTP_URL with credentials works too.
  onAuth: (_auth, _session, callback) => callback(null, { user: "local" }),
  onData(stream, _session, callback) {
    simpleParser(stream)
      .then((mail) => {
        const to = [mail.to ?? []]
          .flat()
          .map((address) => address.text)
          .join(", ");
        const header = `from:    ${mail.from?.text ?? ""}\nto:      ${to}\nsubject: ${mail.subject ?? ""}`;
        console.log(`${"─".repeat(60)}\n${header}\n\n${(mail.text ?? "").trimEnd()}\n`);
        callback();
      })
      .catch((error) => {
        console.error("could not read a mail:", error.message);
        callback(error);
      });
  },
});
let listening = false;
server.on("error", (error) => {
  console.error("mail catcher:", error.message);
  // A port already taken ends it; a client's broken connection does not.
  if (!listening) process.exit(1);
});
server.listen(port, "127.0.0.1", () => {
  listening = true;
  console.log(`mail catcher listening on smtp://127.0.0.1:${port}`);
});
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => server.close(() => process.exit(0)));
