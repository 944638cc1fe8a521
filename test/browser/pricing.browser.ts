import { describe, expect, it } from "vitest";
import { consoleRun, eventually } from "./support/console.js";

const run = consoleRun();

const RATES = `{
  pricingRates { __typename ... on QueryPricingRatesSuccess { data { tipo_vehiculo tarifa_base precio_km tarifa_minima } } }
  pricingSheets { __typename ... on QueryPricingSheetsSuccess { data { tipo_vehiculo tarifa_base costo_por_km tarifa_minima } } ... on Error { message } }
}`;

describe("the pricing page and the other sections", () => {
  it("edits a rate, and GraphQL answers the new value", async () => {
    const admin = await run.api.adminToken();
    const before = await run.api.graphql(RATES, {}, admin);
    const moto = before.pricingRates.data.find((rate: { tipo_vehiculo: string }) => rate.tipo_vehiculo === "moto");
    expect(moto.precio_km).toBe(2000);

    const { page, open, signIn, screenshot } = await run.tab();
    await open("tarifas");
    await signIn();
    await page.getByRole("heading", { level: 1, name: "Tarifas y comisiones" }).waitFor();
    const table = page.getByRole("table", { name: "Tarifas por tipo de vehículo" });
    const row = table.getByRole("row").filter({ hasText: "Moto" }).filter({ hasNotText: "Mototaxi" });
    await eventually(() => row.count()).toBe(1);
    await screenshot("pricing");

    await row.getByRole("button", { name: "Editar tarifa de Moto" }).click();
    const dialog = page.getByRole("dialog", { name: "Tarifa de moto" });
    await dialog.waitFor();
    const perKm = dialog.getByLabel("Precio por km (COP)");
    expect(await perKm.inputValue()).toBe("2000");
    await perKm.fill("2150");
    await screenshot("pricing-edit");
    await dialog.getByRole("button", { name: "Guardar tarifa" }).click();
    await eventually(() => page.getByRole("status").filter({ hasText: "Tarifa de moto guardada." }).count()).toBe(1);
    expect(await dialog.count()).toBe(0);

    const after = await run.api.graphql(RATES, {}, admin);
    const rate = after.pricingRates.data.find((r: { tipo_vehiculo: string }) => r.tipo_vehiculo === "moto");
    const sheet = after.pricingSheets.data.find((s: { tipo_vehiculo: string }) => s.tipo_vehiculo === "moto");
    expect(rate).toEqual({ ...moto, precio_km: 2150 });
    expect(sheet.costo_por_km).toBe(2150);
    // The other vehicle types kept their rates.
    expect(after.pricingRates.data.filter((r: { tipo_vehiculo: string }) => r.tipo_vehiculo !== "moto")).toEqual(
      before.pricingRates.data.filter((r: { tipo_vehiculo: string }) => r.tipo_vehiculo !== "moto"),
    );
    // The table shows the saved value.
    await eventually(async () => (await row.getByRole("cell").nth(2).textContent())?.replace(/\s/g, " ")).toBe("$ 2.150");
    await screenshot("pricing-saved");

    // The change is in the audit log, with who made it.
    await page.getByRole("navigation", { name: "Secciones" }).getByRole("link", { name: "Auditoría" }).click();
    await page.getByRole("heading", { level: 1, name: "Auditoría" }).waitFor();
    const entry = page
      .getByRole("table", { name: "Entradas de la auditoría" })
      .getByRole("row")
      .filter({ hasText: "Cambió la tarifa de moto" });
    await eventually(() => entry.count()).toBe(1);
    expect(await entry.textContent()).toContain("precio_km 2150");
    expect(await entry.textContent()).toContain("admin@demo.co");
    await screenshot("audit-rate-change");
  });

  it("opens the users, companies and payouts sections, with the settlement report", async () => {
    const { page, open, signIn, screenshot } = await run.tab();
    await open();
    await signIn();
    const sections = page.getByRole("navigation", { name: "Secciones" });

    await sections.getByRole("link", { name: "Usuarios" }).click();
    await page.getByRole("heading", { level: 1, name: "Usuarios" }).waitFor();
    // The demo accounts are listed.
    await eventually(() => page.getByRole("cell").filter({ hasText: "ana.pasajera@demo.co" }).count()).toBe(1);
    await screenshot("users");

    await sections.getByRole("link", { name: "Empresas" }).click();
    await page.getByRole("heading", { level: 1, name: "Empresas" }).waitFor();
    await page.getByRole("table").first().waitFor();
    await screenshot("companies");

    await sections.getByRole("link", { name: "Retiros y liquidación" }).click();
    await page.getByRole("heading", { level: 1, name: "Retiros y liquidación" }).waitFor();
    const settlement = page.getByRole("region", { name: "Liquidación del periodo" });
    await eventually(() => settlement.getByText(/El libro (no )?cuadra/).count()).toBe(1);
    expect(await settlement.getByText("El libro cuadra", { exact: true }).count()).toBe(1);
    await screenshot("payouts");
    await screenshot("settlement", settlement);
  });
});
