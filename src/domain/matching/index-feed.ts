import type { Db } from "../../db/client.js";
import type { DriverPositionEvent } from "../events.js";
import type { DriverGeoIndex } from "./geo-index.js";

/**
 * Fills the geo index from the database (positions survive restarts there), then keeps it
 * current from position events, which arrive from every process when events go through Redis.
 */
export async function feedDriverIndex(
  db: Db,
  index: DriverGeoIndex,
  positions: AsyncIterable<DriverPositionEvent>,
  freshSince: Date,
): Promise<void> {
  const online = await db.driverStatus.findMany({
    where: { disponible: true, posicion_en: { gte: freshSince }, latitud: { not: null }, longitud: { not: null } },
  });
  for (const status of online) {
    index.update({ conductor_id: status.conductor_id, latitud: status.latitud!, longitud: status.longitud!, disponible: true, at: status.posicion_en! });
  }
  // Runs until the subscription ends, at shutdown.
  void (async () => {
    for await (const position of positions) index.update(position);
  })();
}
