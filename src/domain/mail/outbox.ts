import type { Tx } from "../../db/client.js";
import type { OutgoingMail } from "../deps.js";

/**
 * Mail is written to the outbox table in the same transaction as the change that causes it,
 * so a rolled-back request sends nothing and a committed one is never lost.
 */
export async function queueMail(tx: Tx, mail: OutgoingMail): Promise<OutgoingMail> {
  await tx.outboxMail.create({ data: mail });
  return mail;
}
