import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { consoleRun, eventually, fitsWidth, PHONE } from "./support/console.js";

const run = consoleRun({ mail: true });

const SHARE = `mutation ($trip: Int!) {
  shareTrip(trip_id: $trip, enviar_a_contactos: true) { __typename ... on EnlaceSeguimiento { id url avisados } ... on Error { message } }
}`;
const REVOKE = `mutation ($id: Int!) { revokeTripShare(enlace_id: $id) { __typename ... on EnlaceSeguimiento { vigente } } }`;

/** Points from the pickup at Parque Lleras towards the stadium, as the driver's phone reports them. */
const ROUTE = [
  { latitud: 6.2166, longitud: -75.5699 },
  { latitud: 6.2286, longitud: -75.5761 },
  { latitud: 6.2406, longitud: -75.5822 },
];

/** The driver's dot on the map: where it is drawn. */
const driverDot = async (page: Page) => {
  const box = await page.locator(".marcador-conductor").boundingBox();
  return box && { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
};

const field = (page: Page, id: string) => page.locator(`#${id}`).textContent();

describe("a trip's share link", () => {
  it("opened by a relative on a phone from the mail, follows the driver and the trip's end, then shows only that it ended", async () => {
    const { api } = run;
    const admin = await api.adminToken();
    const driver = await api.onlineDriver(admin);
    const passenger = await api.register("pasajero", "Valentina", "Zuluaga");
    const relative = `familia.${randomUUID().slice(0, 8)}@example.com`;
    await api.legacy("POST", "/user/contactos_emergencia.php", { usuario_id: passenger.id, nombre: "Marta", email: relative });
    const trip = await api.requestTrip(passenger.id);
    await api.acceptTrip(trip.id, driver.id);
    const passengerToken = await api.login(passenger.email);
    const { shareTrip: shared } = await api.graphql(SHARE, { trip: trip.id }, passengerToken);
    expect(shared).toMatchObject({ __typename: "EnlaceSeguimiento", avisados: ["Marta"] });

    // The link as the relative got it, by mail; opened on this run's address.
    const mail = await run.mail.waitFor((received) => received.to.includes(relative));
    const link = mail.text.match(/https?:\/\/\S+\/seguimiento\/[A-Za-z0-9_-]+/)?.[0];
    expect(link).toBe(shared.url);
    const phone = await run.tab(PHONE);
    const { page } = phone;
    expect((await page.goto(new URL(link!).pathname))?.status()).toBe(200);
    await page.getByRole("status").filter({ hasText: "En vivo" }).waitFor();

    await page.getByRole("heading", { level: 1, name: "Valentina comparte su viaje contigo" }).waitFor();
    expect(await field(page, "estado")).toBe("Conductor asignado");
    expect(await field(page, "conductor")).toBe("Diego");
    expect(await field(page, "vehiculo")).toBe("Carro · Renault · Blanco");
    expect(await field(page, "placa")).toBe(driver.plate);
    expect(await field(page, "origen")).toBe("Parque Lleras, El Poblado");
    expect(await field(page, "destino")).toBe("Estadio Atanasio Girardot");
    expect(await field(page, "llegada")).toMatch(/\(en \d+ min\)$/);
    expect(await field(page, "actualizado")).toMatch(/^hace \d+ s \(/);
    await fitsWidth(page, PHONE.width);

    // The driver's phone reports where it is; the dot moves north (up) with each report.
    let dot = await driverDot(page);
    expect(dot).not.toBeNull();
    for (const point of ROUTE) {
      await api.legacy("POST", "/conductor/update_location.php", { conductor_id: driver.id, ...point });
      const before = dot!;
      await eventually(async () => (await driverDot(page))!.y, "the driver's dot, moving north").toBeLessThan(before.y);
      dot = await driverDot(page);
    }

    await api.startTrip(trip.id);
    await eventually(() => field(page, "estado")).toBe("En viaje");
    await page.getByRole("heading", { level: 1, name: "Valentina va en camino con Diego" }).waitFor();
    await phone.screenshot("safety-share-page");

    // Another viewer, on a desktop, whose live channel drops at once: the page polls and says so.
    const desktop = await run.tab();
    await desktop.page.route("**/seguimiento/*/eventos", (route) =>
      route.fulfill({ status: 200, headers: { "content-type": "text/event-stream", "cache-control": "no-store" }, body: "" }),
    );
    expect((await desktop.page.goto(new URL(link!).pathname))?.status()).toBe(200);
    await desktop.page.getByRole("status").filter({ hasText: "Sin conexión en vivo: se actualiza cada 5 segundos" }).waitFor();
    await eventually(() => field(desktop.page, "estado")).toBe("En viaje");
    const polled = await driverDot(desktop.page);
    await api.legacy("POST", "/conductor/update_location.php", { conductor_id: driver.id, latitud: 6.2486, longitud: -75.5863 });
    await eventually(async () => (await driverDot(desktop.page))!.y, "the dot, moved by polling").toBeLessThan(polled!.y);
    await desktop.screenshot("safety-share-page-polling");
    await desktop.close();

    await api.completeTrip(trip.id, 18_000);
    await eventually(() => field(page, "estado")).toBe("Viaje completado");
    await page.getByRole("heading", { level: 1, name: "Valentina llegó a su destino" }).waitFor();
    expect(await field(page, "posicion")).toBe("Ya no se muestra");
    expect(await page.locator(".marcador-conductor").count()).toBe(0);
    // Nothing happens on the trip any more, and the page still hears from the server.
    const heard = await page.locator("#actualizado").getAttribute("datetime");
    await expect.poll(() => page.locator("#actualizado").getAttribute("datetime"), { timeout: 20_000 }).not.toBe(heard);

    // Never a surname, a phone number or an e-mail.
    const text = await page.locator("body").textContent();
    for (const secret of ["Zuluaga", "Ruiz", "3001234567", "3105551234", passenger.email, relative]) expect(text).not.toContain(secret);

    // The passenger revokes it: the open page shows only that the trip ended, and so does the link opened again.
    const { revokeTripShare } = await api.graphql(REVOKE, { id: shared.id }, passengerToken);
    expect(revokeTripShare).toEqual({ __typename: "EnlaceSeguimiento", vigente: false });
    await page.getByRole("heading", { level: 1, name: "Este viaje terminó" }).waitFor();
    const again = await run.tab(PHONE);
    expect((await again.page.goto(new URL(link!).pathname))?.status()).toBe(200);
    await again.page.getByRole("heading", { level: 1, name: "Este viaje terminó" }).waitFor();
    // What was shown of the trip is gone from the open page too, not only hidden.
    for (const ended of [page, again.page]) {
      const shown = await ended.locator("body").textContent();
      for (const detail of ["Diego", driver.plate, "Parque Lleras", "Estadio", "Valentina"]) expect(shown).not.toContain(detail);
    }
    await again.screenshot("safety-share-page-ended");
  });
});
