import type { Deps } from "./deps.js";

/** That the service answers and reaches its database: the old service's health check (verify_system_json.php). */
export async function serviceStatus(deps: Pick<Deps, "db" | "clock">) {
  await deps.db.$queryRawUnsafe("SELECT 1");
  return { base_de_datos: "conectada", fecha: deps.clock.now() };
}
