import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { PASSWORD } from "./support/api.js";
import { consoleRun, eventually, fitsWidth, goTo, PHONE, said, type Tab } from "./support/console.js";

const run = consoleRun();

/** Text as the operator reads it: Intl writes pesos with a no-break space. */
const plain = (text: string | null) => (text ?? "").replace(/\s+/g, " ").trim();

/** The value of the figure named `name` in the region named `region`. */
const figure = (page: Page | Locator, region: string, name: string) =>
  page.getByRole("region", { name: region }).getByRole("group", { name, exact: true }).locator(".cifra__valor").textContent().then(plain);

/** The row of a table with a cell that is exactly `#id`. */
const tripRow = (page: Page, table: Locator, id: number) =>
  table.getByRole("row").filter({ has: page.getByRole("cell", { name: `#${id}`, exact: true }) });

/** The drivers drawn on a live map, and those of them on a trip. */
const markers = (page: Page) => page.locator(".leaflet-overlay-pane path.estado-conductor");
const busyMarkers = (page: Page) => page.locator(".leaflet-overlay-pane path.estado-conductor--en_viaje");

/** Every image in `part` has loaded (a signed link the page may show under its CSP). */
const imagesLoaded = (part: Locator) =>
  part.evaluateAll((images) => images.length > 0 && images.every((image) => (image as HTMLImageElement).naturalWidth > 0));

const COMPANY = "Transportes Aburrá Norte";
// A long trip paid in cash: the platform keeps 15 % ($ 45.000, which the driver owes it), half of it the company's share.
const FARE = 300_000;
const SHARE = "$ 22.500";

describe("a company's whole journey in the console", () => {
  it("signs up, is approved with a share, takes a driver in, follows the driver's trip live, and is paid its share", async () => {
    const { api } = run;
    const admin = await api.adminToken();

    // The company signs itself up, as the apps do.
    const { manager, company } = await api.registerCompany(COMPANY);

    // The administrator approves it in the console and sets its share of the commission.
    const adminTab = await run.tab();
    await adminTab.open("empresas");
    await adminTab.signIn();
    const queued = adminTab.page.getByRole("table", { name: "Empresas por revisar" }).getByRole("row").filter({ hasText: COMPANY });
    await queued.getByRole("button", { name: `Aprobar ${COMPANY}` }).click();
    await adminTab.page.getByRole("dialog", { name: "Aprobar empresa" }).getByRole("button", { name: "Aprobar", exact: true }).click();
    await said(adminTab.page, `Se aprobó la empresa ${COMPANY}`);
    await adminTab.page.getByRole("tab", { name: "Todas" }).click();
    await adminTab.page.getByLabel("Buscar").fill(COMPANY);
    const listed = adminTab.page.getByRole("table", { name: "Empresas" }).getByRole("row").filter({ hasText: COMPANY });
    await eventually(() => listed.count()).toBe(1);
    await listed.getByRole("button", { name: `Comisión ${COMPANY}` }).click();
    const share = adminTab.page.getByRole("dialog", { name: "Parte de la comisión" });
    await share.getByLabel("Parte de la comisión (%)").fill("50");
    await share.getByRole("button", { name: "Guardar" }).click();
    await eventually(() => adminTab.page.getByRole("status").textContent()).toBe(`La parte de ${COMPANY} quedó en 50 % de la comisión.`);
    expect(await api.company(admin, company.id)).toMatchObject({ estado: "activa", porcentaje_comision: 50 });

    // An approved driver asks to join it from the driver app; the manager accepts in the console.
    const driver = await api.approvedDriver(admin, "Camilo", "Restrepo");
    const asked = await api.legacy("POST", "/conductor/update_vehicle.php", { conductor_id: driver.id, empresa_id: company.id });
    expect(asked.message).toContain(`Tu solicitud a ${COMPANY} está pendiente`);
    const tab = await run.tab();
    const { page, screenshot } = tab;
    await tab.open();
    await tab.signIn(manager.email, PASSWORD);
    await goTo(page, "Solicitudes");
    await page.getByRole("button", { name: "Aceptar a Camilo Restrepo" }).click();
    await page.getByRole("dialog", { name: "Aceptar solicitud" }).getByRole("button", { name: "Aceptar", exact: true }).click();
    await said(page, "Camilo Restrepo ya es conductor de tu empresa.");

    // The fleet lists the driver, approved and not connected yet.
    await goTo(page, "Conductores");
    await page.getByRole("heading", { level: 1, name: "Conductores" }).waitFor();
    const fleet = page.getByRole("table", { name: "Conductores de la empresa" });
    const driverRow = fleet.getByRole("row").filter({ hasText: "Camilo Restrepo" });
    await eventually(() => driverRow.textContent().then(plain)).toContain("Desconectado");
    expect(plain(await driverRow.textContent())).toContain("Aprobado");
    expect(plain(await driverRow.textContent())).toContain(driver.plate);

    // The driver connects: the manager's live map shows them, and only them.
    await api.goOnline(driver.id);
    await goTo(page, "Mapa en vivo");
    await page.getByRole("heading", { level: 1, name: "Mapa en vivo" }).waitFor();
    await page.getByText("En vivo", { exact: true }).waitFor();
    await eventually(() => markers(page).count()).toBe(1);
    await eventually(() => page.getByRole("complementary", { name: "Resumen" }).getByRole("heading").textContent()).toBe(
      "1 conductor conectado",
    );
    // On a phone too, from the start of the trip.
    const phone = await run.tab(PHONE);
    await phone.open("mapa");
    await phone.signIn(manager.email, PASSWORD);
    await phone.page.getByText("En vivo", { exact: true }).waitFor();
    await eventually(() => markers(phone.page).count()).toBe(1);

    // A passenger asks for a trip and the driver takes it: it is the company's, and on its map at once.
    const passenger = await api.register("pasajero", "Beatriz", "Mejía");
    const trip = await api.requestTrip(passenger.id);
    await api.acceptTrip(trip.id, driver.id);
    const active = page.getByRole("table", { name: "Viajes activos" });
    const activeRow = tripRow(page, active, trip.id);
    await eventually(() => activeRow.getByRole("cell").nth(1).textContent(), "the trip, live on the company's map").toBe("Aceptado");
    expect(plain(await activeRow.textContent())).toContain("Camilo Restrepo");
    await eventually(() => busyMarkers(page).count()).toBe(1);
    await api.startTrip(trip.id);
    await eventually(() => activeRow.getByRole("cell").nth(1).textContent()).toBe("En curso");
    await busyMarkers(page).hover({ force: true });
    await eventually(() => page.locator(".leaflet-tooltip").last().textContent()).toContain(
      `Camilo Restrepo · Auto · En viaje (viaje #${trip.id})`,
    );
    await screenshot("company-live-map");
    const phoneRow = tripRow(phone.page, phone.page.getByRole("table", { name: "Viajes activos" }), trip.id);
    await eventually(() => phoneRow.getByRole("cell").nth(1).textContent()).toBe("En curso");
    await fitsWidth(phone.page, PHONE.width);
    await phone.screenshot("phone-company-live-map");

    // Once completed, it leaves the map, and is among the company's trips with its money; of the passenger, the first name.
    await api.completeTrip(trip.id, FARE);
    // The driver app reports where the driver is, free again.
    await api.goOnline(driver.id);
    await eventually(() => activeRow.count()).toBe(0);
    await eventually(() => busyMarkers(page).count()).toBe(0);
    await goTo(page, "Viajes");
    await page.getByRole("heading", { level: 1, name: "Viajes" }).waitFor();
    const listedTrip = tripRow(page, page.getByRole("table", { name: "Viajes de la empresa" }), trip.id);
    await eventually(() => listedTrip.textContent().then(plain)).toContain("Completado");
    const tripText = plain(await listedTrip.textContent());
    for (const part of ["Beatriz", "Camilo Restrepo", "$ 300.000", SHARE]) expect(tripText).toContain(part);
    expect(tripText).not.toContain("Mejía");
    await screenshot("company-trips");
    await listedTrip.getByRole("button", { name: `Ver viaje ${trip.id}` }).click();
    const detail = page.getByRole("dialog", { name: `Viaje #${trip.id}` });
    const fact = async (label: string) =>
      plain(
        await detail
          .locator(".definiciones__fila", { has: page.getByText(label, { exact: true }) })
          .locator("dd")
          .textContent(),
      );
    await eventually(() => fact("Parte de la empresa")).toBe(`${SHARE} (50 % de la comisión)`);
    expect(await fact("Pasajero")).toBe("Beatriz");
    expect(await fact("Comisión de la plataforma")).toBe("$ 45.000");
    expect(await fact("Ganancia del conductor")).toBe("$ 255.000");
    await screenshot("company-trip-detail");
    await detail.getByRole("button", { name: "Cerrar" }).last().click();

    // The home page counts it today and this month, with its charts.
    await goTo(page, "Mi empresa");
    for (const region of ["Hoy", "Este mes"]) {
      await eventually(() => figure(page, region, "Viajes")).toBe("1");
      expect(await figure(page, region, "Cobrado")).toBe("$ 300.000");
      expect(await figure(page, region, "Parte de la empresa")).toBe(SHARE);
      expect(await figure(page, region, "Neto de los conductores")).toBe("$ 255.000");
    }
    expect(await page.locator("canvas").count()).toBe(3);
    expect(await page.getByRole("img", { name: /^Viajes por estado: .*Completado 1\b/ }).count()).toBe(1);
    await screenshot("company-home-figures");

    // The driver's detail: on the fleet list, then their page with earnings, documents and the trip.
    await goTo(page, "Conductores");
    await eventually(() => driverRow.textContent().then(plain)).toContain("En línea");
    expect(plain(await driverRow.textContent())).toContain("Al día");
    await screenshot("company-drivers");
    await driverRow.getByRole("link", { name: "Camilo Restrepo" }).click();
    await page.getByRole("heading", { level: 1, name: "Camilo Restrepo" }).waitFor();
    await eventually(() => figure(page, "Ganancias", "Ganó hoy")).toBe("$ 255.000");
    expect(await figure(page, "Cómo trabaja", "Ahora")).toBe("En línea");
    await tripRow(page, page.getByRole("table", { name: "Últimos viajes del conductor" }), trip.id).waitFor();
    const thumbnails = page.locator(".miniaturas img");
    expect(await thumbnails.count()).toBe(6);
    for (const thumbnail of await thumbnails.all()) await thumbnail.scrollIntoViewIfNeeded();
    await eventually(() => imagesLoaded(thumbnails)).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot("company-driver");

    // The share is in the balance; the manager adds an account to be paid in.
    await goTo(page, "Dinero y retiros");
    await eventually(() => figure(page, "Saldo de la empresa", "Disponible")).toBe(SHARE);
    await page.getByRole("button", { name: "Agregar cuenta" }).click();
    const adding = page.getByRole("dialog", { name: "Agregar cuenta de retiro" });
    await adding.getByLabel("Dónde cobrar").selectOption("nequi");
    await adding.getByLabel("Celular").fill("3012345678");
    await adding.getByRole("button", { name: "Agregar cuenta" }).click();
    await said(page, "Se agregó la cuenta Nequi ****5678");

    // The administrator reads the company's figures in its details, and verifies the account there.
    await adminTab.page.reload();
    await adminTab.page.getByRole("tab", { name: "Todas" }).click();
    await adminTab.page.getByLabel("Buscar").fill(COMPANY);
    await eventually(() => listed.count()).toBe(1);
    await listed.getByRole("button", { name: COMPANY, exact: true }).click();
    const details = adminTab.page.getByRole("dialog", { name: COMPANY });
    await eventually(() => figure(details, "Este mes", "Parte de la empresa")).toBe(SHARE);
    expect(await figure(details, "Este mes", "Viajes")).toBe("1");
    expect(await figure(details, "Hoy", "Cobrado")).toBe("$ 300.000");
    expect(plain(await details.getByRole("group", { name: "Saldo por retirar" }).textContent())).toContain(SHARE);
    await adminTab.screenshot("company-details-figures");
    await details.getByRole("button", { name: "Verificar Nequi ****5678" }).click();
    await eventually(() => details.getByRole("status").textContent()).toBe(
      `Se verificó la cuenta Nequi ****5678: ya puede recibir los retiros de ${COMPANY}.`,
    );

    // The manager asks for a payout to it.
    await page.reload();
    await page.getByRole("table", { name: "Cuentas de retiro" }).getByText("Verificada", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Pedir retiro" }).click();
    const asking = page.getByRole("dialog", { name: "Pedir retiro" });
    await asking.getByLabel("Monto (COP)").fill("20000");
    await asking.getByRole("button", { name: "Pedir retiro" }).click();
    await said(page, "Pediste el retiro");
    await eventually(() => figure(page, "Saldo de la empresa", "En retiro")).toBe("$ 20.000");
    expect(await figure(page, "Saldo de la empresa", "Disponible")).toBe("$ 2.500");
    await screenshot("company-journey-payout");

    // On a phone, each of the manager's new pages fits the screen.
    await phonePages(phone, driver.id, trip.id);
  });
});

/** The manager's home, fleet, a driver, trips (and the map, above) on a phone: each fits, photographed. */
async function phonePages(phone: Tab, driverId: number, tripId: number) {
  const { page } = phone;
  await goTo(page, "Mi empresa");
  await eventually(() => figure(page, "Hoy", "Parte de la empresa")).toBe(SHARE);
  await fitsWidth(page, PHONE.width);
  await phone.screenshot("phone-company-home-figures");

  await goTo(page, "Conductores");
  await page.getByRole("table", { name: "Conductores de la empresa" }).getByRole("row").filter({ hasText: "Camilo Restrepo" }).waitFor();
  await fitsWidth(page, PHONE.width);
  await phone.screenshot("phone-company-drivers");

  await phone.open(`conductores/${driverId}`);
  await eventually(() => figure(page, "Ganancias", "Ganó hoy")).toBe("$ 255.000");
  const thumbnails = page.locator(".miniaturas img");
  for (const thumbnail of await thumbnails.all()) await thumbnail.scrollIntoViewIfNeeded();
  await eventually(() => imagesLoaded(thumbnails)).toBe(true);
  await page.evaluate(() => window.scrollTo(0, 0));
  await fitsWidth(page, PHONE.width);
  await phone.screenshot("phone-company-driver");

  await goTo(page, "Viajes");
  await tripRow(page, page.getByRole("table", { name: "Viajes de la empresa" }), tripId).waitFor();
  await fitsWidth(page, PHONE.width);
  await phone.screenshot("phone-company-trips");
}
