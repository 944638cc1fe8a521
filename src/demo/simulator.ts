import { memberFor } from "../domain/accounts/sessions.js";
import type { Deps } from "../domain/deps.js";
import { updateDriverLocation } from "../domain/matching/locations.js";
import { DEMO_DRIVERS } from "./demo-data.js";

/**
 * In demo mode nobody carries the demo drivers' phones, so this stands in for them: every
 * 10 s each demo driver reports a position near their stand, through the same operation a
 * phone uses. Without it their positions would go stale and no trip could be requested. A tick
 * that fails goes to `failed`; the next one tries again.
 */
export function simulateDemoDrivers(deps: Deps, failed: (error: unknown) => void, intervalMs = 10_000): { stop(): void } {
  const stands = new Map(DEMO_DRIVERS.map((d) => [d.email, d]));
  // About ±150 m around the stand.
  const jitter = () => (Math.random() - 0.5) * 0.003;
  const tick = async () => {
    const drivers = await deps.db.user.findMany({ where: { email: { in: [...stands.keys()] } } });
    for (const driver of drivers) {
      const stand = stands.get(driver.email)!;
      const phone = memberFor(driver, { via: "ids", session: null, actingAdminId: null, address: null });
      await updateDriverLocation(deps, phone, { latitud: stand.latitud + jitter(), longitud: stand.longitud + jitter() });
    }
  };
  const timer = setInterval(() => {
    tick().catch(failed);
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
