import { unavailableReason } from "../db/client.js";
import type { Deps } from "../domain/deps.js";
import { dueReminders, remind } from "../domain/drivers/document-reminders.js";
import type { DatabaseOutage } from "../domain/outage.js";
import { repeatPasses, type Passes } from "../domain/passes.js";

/** Reminders are due by the day: looking every hour sends them at most an hour into it. */
const EVERY_MS = 3600 * 1000;

/**
 * Sends the reminders due as the process starts and every hour after; every process does, and each
 * reminder goes once. One that fails is tried again next round; while the database is away the
 * round ends there, counted in its outage.
 */
export function startDocumentReminders(deps: Deps, database: DatabaseOutage): Passes {
  const failed = database.caught("document reminders", "document reminders: could not look for the ones due; looked for again next round");
  return repeatPasses(async (stopped) => {
    try {
      for (const reminder of await dueReminders(deps)) {
        if (stopped()) return;
        await remind(deps, reminder).catch((error: unknown) => {
          if (unavailableReason(error) !== null) throw error;
          deps.log.error(
            { err: error, conductor_id: reminder.driver.id, documento: reminder.document.key },
            "document reminders: could not send one; it is tried again next round",
          );
        });
      }
    } catch (error) {
      failed(error);
    }
  }, EVERY_MS);
}
