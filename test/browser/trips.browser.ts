import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { consoleRun, eventually } from "./support/console.js";

const run = consoleRun();

/** The row of a table whose first cell is exactly `#id`. */
const tripRow = (page: Page, table: Locator, id: number) =>
  table.getByRole("row").filter({ has: page.getByRole("cell", { name: `#${id}`, exact: true }) });

const TRIP = `query ($id: Int!) { trip(trip_id: $id) { __typename ... on Viaje { estado motivo_cancelacion cancelado_por } ... on Error { message } } }`;

describe("a trip requested through the legacy API", () => {
  let admin: string;
  let driver: { id: number; nombre: string };
  let tripId: number;

  beforeAll(async () => {
    admin = await run.api.adminToken();
    driver = await run.api.onlineDriver(admin);
  });

  it("appears on the live map and in the trip list, and changes state live when the driver accepts it", async () => {
    const { api } = run;
    const { page, open, signIn, screenshot } = await run.tab();
    await open("mapa");
    await signIn();
    await page.getByRole("heading", { level: 1, name: "Mapa en vivo" }).waitFor();
    // Subscribed before anything happens.
    await page.getByText("En vivo", { exact: true }).waitFor();
    // The map draws the connected drivers, the test's own among them.
    await eventually(() => page.locator(".leaflet-overlay-pane path.estado-conductor").count()).toBeGreaterThanOrEqual(1);
    // Set on this document only: still there at the end means the page was never reloaded.
    await page.evaluate(() => Object.assign(window, { sinRecargar: true }));

    const passenger = await api.register("pasajero");
    const trip = await api.requestTrip(passenger.id);
    tripId = trip.id;
    expect(trip.estado).toBe("pendiente");

    const active = page.getByRole("table", { name: "Viajes activos" });
    const row = tripRow(page, active, tripId);
    await eventually(() => row.count(), "the new trip in the live table").toBe(1);
    await eventually(() => row.getByRole("cell").nth(1).textContent()).toBe("Pendiente");
    expect(await row.textContent()).toContain("Parque Lleras");
    await screenshot("live-map");

    // The trip list shows it with its passenger.
    await page.getByRole("navigation", { name: "Secciones" }).getByRole("link", { name: "Viajes" }).click();
    await page.getByRole("heading", { level: 1, name: "Viajes" }).waitFor();
    const listed = tripRow(page, page.getByRole("table", { name: "Viajes" }), tripId);
    await eventually(() => listed.count()).toBe(1);
    expect(await listed.textContent()).toContain(passenger.nombre);
    expect(await listed.textContent()).toContain("Pendiente");
    await screenshot("trips");

    // Back to the live map (a client-side navigation) and the driver takes the trip on their phone.
    await page.getByRole("navigation", { name: "Secciones" }).getByRole("link", { name: "Mapa en vivo" }).click();
    await page.getByText("En vivo", { exact: true }).waitFor();
    await eventually(() => row.getByRole("cell").nth(1).textContent()).toBe("Pendiente");
    await api.legacy("POST", "/viajes/accept_trip.php", { trip_id: tripId, conductor_id: driver.id });
    await eventually(() => row.getByRole("cell").nth(1).textContent(), "the trip's state, live").toBe("Aceptado");
    // The driver's marker turns "on a trip", and names the trip.
    const busy = page.locator(".leaflet-overlay-pane path.estado-conductor--en_viaje");
    await eventually(() => busy.count()).toBe(1);
    await busy.hover({ force: true });
    await eventually(() => page.locator(".leaflet-tooltip").last().textContent()).toContain(
      `${driver.nombre} · Auto · En viaje (viaje #${tripId})`,
    );
    expect(await page.evaluate(() => "sinRecargar" in window)).toBe(true);
    await screenshot("live-map-accepted");
  });

  it("is cancelled from its detail with a reason, which the audit log then shows", async () => {
    expect(tripId).toBeGreaterThan(0);
    const reason = "El pasajero pidió cancelar por teléfono";
    const { page, open, signIn, screenshot } = await run.tab();
    await open("viajes");
    await signIn();
    await page.getByRole("heading", { level: 1, name: "Viajes" }).waitFor();
    const row = tripRow(page, page.getByRole("table", { name: "Viajes" }), tripId);
    await eventually(() => row.count()).toBe(1);
    await row.getByRole("button", { name: `Ver viaje ${tripId}` }).click();
    const detail = page.getByRole("dialog", { name: `Viaje #${tripId}` });
    await detail.waitFor();
    expect(await detail.textContent()).toContain("Aceptado");
    await screenshot("trip-detail");

    await detail.getByRole("button", { name: /^Cancelar (el )?viaje/ }).click();
    const asking = page.getByRole("dialog", { name: /Cancelar (el )?viaje/ });
    await asking.waitFor();
    await asking.getByRole("textbox", { name: /Motivo/ }).fill(reason);
    await screenshot("trip-cancel-reason");
    await asking.getByRole("button", { name: /^Cancelar (el )?viaje/ }).click();
    await eventually(async () => (await run.api.graphql(TRIP, { id: tripId }, admin)).trip).toEqual({
      __typename: "Viaje",
      estado: "cancelado",
      motivo_cancelacion: reason,
      cancelado_por: "admin",
    });
    // The list shows the new state once the action is done, as the other pages reload after theirs.
    await eventually(() => row.textContent()).toContain("Cancelado");
    await screenshot("trip-cancelled");
    // Whatever dialog is still open closes with Escape, as an operator would close it.
    for (let i = 0; i < 3 && (await page.locator("dialog[open]").count()) > 0; i++) await page.keyboard.press("Escape");

    await page.getByRole("navigation", { name: "Secciones" }).getByRole("link", { name: "Auditoría" }).click();
    await page.getByRole("heading", { level: 1, name: "Auditoría" }).waitFor();
    const entries = page.getByRole("table", { name: "Entradas de la auditoría" });
    const entry = entries.getByRole("row").filter({ hasText: `Canceló el viaje ${tripId}` });
    await eventually(() => entry.count()).toBe(1);
    expect(await entry.textContent()).toContain(reason);
    expect(await entry.textContent()).toContain("Andrea Admin");
    await screenshot("audit");
  });

  it("shows in a completed trip's detail where its fare went: each commission and what the driver earned", async () => {
    const { api } = run;
    const passenger = await api.register("pasajero", "Beatriz", "Mejía");
    const trip = await api.completedTrip(passenger.id, driver.id, 20_000);

    const { page, open, signIn, screenshot } = await run.tab();
    await open("viajes");
    await signIn();
    const row = tripRow(page, page.getByRole("table", { name: "Viajes" }), trip.id);
    await eventually(() => row.count()).toBe(1);
    await row.getByRole("button", { name: `Ver viaje ${trip.id}` }).click();
    const detail = page.getByRole("dialog", { name: `Viaje #${trip.id}` });
    await detail.waitFor();
    // Each fact as the operator reads it: its label and its value (Intl writes pesos with a no-break space).
    const fact = async (label: string) =>
      (
        await detail
          .locator(".definiciones__fila", { has: page.getByText(label, { exact: true }) })
          .locator("dd")
          .textContent()
      )?.replace(/\s/g, " ");
    expect(await fact("Precio")).toBe("$ 20.000");
    // Cash: the driver collected it; the platform's 15 % is the whole commission.
    expect(await fact("Comisión de la plataforma")).toBe("$ 3.000 (15 %)");
    expect(await fact("Comisión del método de pago")).toBe("$ 0 (0 %)");
    expect(await fact("Ganancia del conductor")).toBe("$ 17.000");
    await detail.getByText("Ganancia del conductor", { exact: true }).scrollIntoViewIfNeeded();
    await screenshot("trip-fare-split");
  });

  it("shows in a trip's detail its stops, a change asked during the ride with the driver's answer, and its history", async () => {
    const { api } = run;
    const passenger = await api.register("pasajero", "Camila", "Ortiz");
    const passengerToken = await api.login(passenger.email);
    const taking = await api.approvedDriver(admin, "Julián", "Mora");
    await api.goOnline(taking.id);
    const trip = await api.requestTrip(passenger.id);
    await api.acceptTrip(trip.id, taking.id);
    await api.startTrip(trip.id);
    const asked = await api.graphql(
      `mutation ($id: Int!) {
        requestTripChange(trip_id: $id, destino: { latitud: 6.2518, longitud: -75.5636, direccion: "Parque Berrío" }) {
          __typename ... on CambioViaje { id precio_despues } ... on Error { message }
        }
      }`,
      { id: trip.id },
      passengerToken,
    );
    expect(asked.requestTripChange.__typename, JSON.stringify(asked)).toBe("CambioViaje");
    const answered = await api.graphql(
      `mutation ($id: Int!) { answerTripChange(cambio_id: $id, aceptar: true) { __typename } }`,
      { id: asked.requestTripChange.id },
      taking.token,
    );
    expect(answered.answerTripChange.__typename).toBe("CambioViaje");

    const { page, open, signIn, screenshot } = await run.tab();
    await open("viajes");
    await signIn();
    const row = tripRow(page, page.getByRole("table", { name: "Viajes" }), trip.id);
    await eventually(() => row.count()).toBe(1);
    await row.getByRole("button", { name: `Ver viaje ${trip.id}` }).click();
    const detail = page.getByRole("dialog", { name: `Viaje #${trip.id}` });
    await detail.waitFor();
    const story = detail.getByRole("region", { name: "Historia del viaje" });
    await story.waitFor();
    const text = (await story.textContent())?.replace(/\s/g, " ") ?? "";
    expect(text).toContain("Cambios de recorrido");
    expect(text).toMatch(/a Parque Berrío: \$ [\d.]+ → \$ [\d.]+, aceptado/);
    expect(text).toContain("El pasajero pidió un cambio de recorrido");
    expect(text).toContain("El conductor aceptó el cambio");
    // The trip's facts follow the change: its destination is the new one.
    expect(await detail.textContent()).toContain("Parque Berrío");
    await story.scrollIntoViewIfNeeded();
    await screenshot("trip-history");
  });
});
