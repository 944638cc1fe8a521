import { describe, expect, it } from "vitest";
import { consoleRun, eventually } from "./support/console.js";

// Escalated a second after it is sent, so that the alert is seen escalated, then taken.
const run = consoleRun({ env: { SOS_ESCALATE_S: "1", SOS_POLL_MS: "200" } });

describe("an SOS nobody took in time", () => {
  it("is flagged «Escalado» until an operator takes it, then reads as taken, keeping when it was escalated", async () => {
    const { api } = run;
    const admin = await api.adminToken();
    const driver = await api.onlineDriver(admin);
    const passenger = await api.register("pasajero", "Marta", "Ríos");
    const trip = await api.requestTrip(passenger.id);
    await api.acceptTrip(trip.id, driver.id);

    const { page, open, signIn, screenshot } = await run.tab();
    await open();
    await signIn();
    const { incidente } = await api.legacy("POST", "/user/sos.php", {
      usuario_id: passenger.id,
      trip_id: trip.id,
      latitud: 6.21,
      longitud: -75.57,
    });
    const alert = page.getByRole("alert").filter({ hasText: `SOS #${incidente.id}` });
    await eventually(() => alert.locator(".etiqueta").allTextContents()).toEqual(["Sin atender", "Escalado"]);
    expect(await alert.getAttribute("class")).toContain("sos__alerta--escalada");
    expect(await alert.textContent()).toContain("nadie lo ha atendido");
    await screenshot("sos-escalated");

    await alert.getByRole("button", { name: `Atender SOS ${incidente.id}` }).click();
    await eventually(() => alert.locator(".etiqueta").allTextContents()).toEqual(["Atendido"]);
    expect(await alert.getAttribute("class")).not.toContain("sos__alerta--escalada");
    expect(await alert.textContent()).toContain("se escaló antes de que lo atendieran");
    expect(await alert.textContent()).not.toContain("nadie lo");
    await screenshot("sos-escalated-taken");
  });
});
