import type { Tx } from "../../db/client.js";
import type { Company } from "../../db/models.js";
import type { Deps } from "../deps.js";
import { tell, type Told } from "./tell.js";
import type { NotificationContent } from "./notifications.js";
import { managersOf } from "../company-records.js";

/** Tells every manager of a company the same thing, on their feed and by mail. */
export async function tellManagers(
  tx: Tx,
  deps: Pick<Deps, "clock">,
  told: Told,
  company: Pick<Company, "id">,
  message: NotificationContent & { lineas?: string[] },
): Promise<void> {
  const managers = await tx.user.findMany({ where: managersOf(company.id), select: { id: true, email: true, nombre: true } });
  for (const manager of managers) await tell(tx, deps, told, manager, message);
}
