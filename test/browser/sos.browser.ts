import { describe, expect, it } from "vitest";
import { consoleRun, eventually, goTo, said } from "./support/console.js";

const OPERATIONS = "operaciones@example.co";
const run = consoleRun({ mail: true, env: { SOS_EMAIL: OPERATIONS, SOS_ESCALATION_EMAIL: "guardia@example.co" } });

const HERE = { latitud: 6.2101, longitud: -75.5712 };

describe("an SOS sent from a trip through the legacy API", () => {
  it("appears at once on whatever page the operator is on, is acknowledged and resolved with a note, and the history shows it", async () => {
    const { api } = run;
    const admin = await api.adminToken();
    const driver = await api.onlineDriver(admin);
    const passenger = await api.register("pasajero", "Lucía", "Gómez");
    const trip = await api.requestTrip(passenger.id);
    await api.acceptTrip(trip.id, driver.id);
    await api.startTrip(trip.id);

    const { page, open, signIn, screenshot } = await run.tab();
    await open("tarifas");
    // The alerts' subscription opens with the signed-in frame; the SOS is sent once it is live.
    const live = new Promise<void>((resolve) =>
      page.on("websocket", (socket) =>
        socket.on("framereceived", (frame) => String(frame.payload).includes("connection_ack") && resolve()),
      ),
    );
    await signIn();
    await page.getByRole("heading", { level: 1, name: "Tarifas y comisiones" }).waitFor();
    await live;
    await page.waitForTimeout(300);

    const sentAt = Date.now();
    const { incidente } = await api.legacy("POST", "/user/sos.php", { usuario_id: passenger.id, trip_id: trip.id, ...HERE });
    const alert = page.getByRole("alert").filter({ hasText: `SOS #${incidente.id}` });
    await alert.waitFor({ timeout: 2000 });
    expect(Date.now() - sentAt).toBeLessThan(2000);
    expect(await alert.getByRole("heading").textContent()).toBe(`SOS #${incidente.id} · Pasajero Lucía Gómez · Viaje #${trip.id}`);
    expect(await alert.textContent()).toContain("Sin atender");
    expect(await alert.textContent()).toContain(`${HERE.latitud}, ${HERE.longitud}`);
    // The position on the map, and the link that follows the trip.
    await eventually(() => alert.locator(".leaflet-overlay-pane path.punto-sos").count()).toBe(1);
    expect(await alert.getByRole("link", { name: "Seguir el viaje en vivo" }).getAttribute("href")).toBe(incidente.enlace_seguimiento);
    await screenshot("sos-alert");

    const mail = await run.mail.waitFor(
      (received) => received.to.includes(OPERATIONS) && received.subject.startsWith(`SOS #${incidente.id}:`),
    );
    expect(mail.text).toContain(incidente.enlace_seguimiento);

    // On another page, after a reload: still there, shown once; the link is made anew (only its hash was kept).
    await goTo(page, "Auditoría");
    await page.getByRole("heading", { level: 1, name: "Auditoría" }).waitFor();
    expect(await alert.count()).toBe(1);
    await page.reload();
    await alert.waitFor();
    expect(await alert.textContent()).toContain("Sin enlace en esta pantalla");
    await alert.getByRole("button", { name: `Crear enlace de seguimiento SOS ${incidente.id}` }).click();
    await eventually(() => alert.getByRole("link", { name: "Seguir el viaje en vivo" }).getAttribute("href")).toMatch(
      /\/seguimiento\/[\w-]{43}$/,
    );

    await alert.getByRole("button", { name: `Atender SOS ${incidente.id}` }).click();
    await eventually(() => alert.textContent()).toContain("Atendido");
    await goTo(page, "Viajes");
    await page.getByRole("heading", { level: 1, name: "Viajes" }).waitFor();
    expect(await alert.count()).toBe(1);
    await alert.getByRole("button", { name: `Resolver SOS ${incidente.id}` }).click();
    const dialog = page.getByRole("dialog", { name: `Resolver el SOS #${incidente.id}` });
    await dialog.getByLabel("Nota").fill("Llamamos a la pasajera: llegó bien a su destino");
    await dialog.getByRole("button", { name: "Resolver" }).click();
    await said(page, `SOS #${incidente.id} resuelto.`);
    expect(await alert.count()).toBe(0);

    await goTo(page, "Incidentes SOS");
    await page.getByRole("heading", { level: 1, name: "Incidentes SOS" }).waitFor();
    await page.getByRole("link", { name: `SOS #${incidente.id}`, exact: true }).click();
    await page.getByRole("heading", { level: 1, name: `SOS #${incidente.id}` }).waitFor();
    const history = page.getByRole("listitem").filter({ has: page.locator("strong") });
    await eventually(() => history.locator("strong").allTextContents()).toEqual([
      "Enviado",
      "Correos enviados",
      "Nuevo enlace",
      "Atendido",
      "Resuelto",
    ]);
    expect(await history.last().textContent()).toContain("Llamamos a la pasajera: llegó bien a su destino");
    await eventually(() => page.locator(".sos__detalle .leaflet-overlay-pane path.punto-sos").count()).toBe(1);
    await screenshot("sos-history");
  });
});
