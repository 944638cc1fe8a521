import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { PASSWORD } from "./support/api.js";
import { consoleRun, eventually, PHONE, said } from "./support/console.js";

const run = consoleRun();

/** Text as the operator reads it: Intl writes pesos with a no-break space. */
const plain = (text: string | null) => (text ?? "").replace(/\s+/g, " ").trim();

/** The value of one of the balance's figures. */
const figure = (page: Page, name: string) =>
  page
    .getByRole("region", { name: "Saldo de la empresa" })
    .getByRole("group", { name, exact: true })
    .locator(".cifra__valor")
    .textContent()
    .then(plain);

/** The row of a table with a cell that is exactly `#id`. */
const rowOf = (page: Page, table: Locator, id: number) =>
  table.getByRole("row").filter({ has: page.getByRole("cell", { name: `#${id}`, exact: true }) });

/** The row of one of the manager's payouts, which names it `#id` under its amount. */
const payoutRow = (table: Locator, id: number) => table.getByRole("row").filter({ hasText: new RegExp(`#${id}(?!\\d)`) });

/** The number of the payout the manager's page just said was asked for. */
async function requestedId(page: Page): Promise<number> {
  const message = await page.getByRole("status").filter({ hasText: "Pediste el retiro" }).textContent();
  return Number(/#(\d+)/.exec(message ?? "")?.[1]);
}

describe("a company's money in the console", () => {
  it("credits a company its share of its driver's trip; its manager withdraws it to an account the administrator verified, and sees it paid", async () => {
    const { api } = run;
    const admin = await api.adminToken();
    const { manager, company } = await api.activeCompany(admin, "Transportes del Río");
    await api.setCompanyShare(admin, company.id, 50);
    const driver = await api.onlineDriver(admin);
    await api.joinCompany(driver.token, await api.login(manager.email), company.id);
    const passenger = await api.register("pasajero", "Beatriz", "Mejía");
    // A long trip paid in cash: the platform's 15 % is $ 45.000, and half of it is the company's.
    const trip = await api.completedTrip(passenger.id, driver.id, 300_000);

    // The manager finds the share in the balance and, with its trip's number, among the movements.
    const { page, open, signIn, screenshot } = await run.tab();
    await open();
    await signIn(manager.email, PASSWORD);
    await page.getByRole("navigation", { name: "Secciones" }).getByRole("link", { name: "Dinero y retiros" }).click();
    await page.getByRole("heading", { level: 1, name: "Dinero y retiros" }).waitFor();
    await eventually(() => figure(page, "Disponible")).toBe("$ 22.500");
    expect(await figure(page, "En retiro")).toBe("$ 0");
    expect(await figure(page, "Total retirado")).toBe("$ 0");
    expect(await figure(page, "Parte de la comisión")).toBe("50 %");
    const movements = page.getByRole("table", { name: "Movimientos" });
    const share = rowOf(page, movements, trip.id);
    await eventually(() => share.textContent().then(plain)).toContain("Parte de la comisión");
    expect(plain(await share.textContent())).toContain("+$ 22.500");

    // Without a verified account there is no payout to ask for: the dialog says why.
    await page.getByRole("button", { name: "Pedir retiro" }).click();
    const asking = page.getByRole("dialog", { name: "Pedir retiro" });
    expect(await asking.getByRole("status").textContent()).toContain("Aún no tienes una cuenta de retiro verificada");
    expect(await asking.getByRole("button", { name: "Pedir retiro" }).isDisabled()).toBe(true);
    await asking.getByRole("button", { name: "Cancelar" }).click();

    // An account: the API's word on a wrong mobile number, then a right one.
    await page.getByRole("button", { name: "Agregar cuenta" }).click();
    const adding = page.getByRole("dialog", { name: "Agregar cuenta de retiro" });
    await adding.getByLabel("Dónde cobrar").selectOption("nequi");
    await adding.getByLabel("Celular").fill("301234");
    await adding.getByRole("button", { name: "Agregar cuenta" }).click();
    await eventually(() => adding.getByRole("alert").textContent()).toBe(
      "El campo 'numero' debe ser un celular de 10 dígitos que empiece por 3",
    );
    await adding.getByLabel("Celular").fill("3012345678");
    await adding.getByRole("button", { name: "Agregar cuenta" }).click();
    await said(page, "Se agregó la cuenta Nequi ****5678");
    const accounts = page.getByRole("table", { name: "Cuentas de retiro" });
    const nequi = accounts.getByRole("row").filter({ hasText: "Nequi ****5678" });
    await eventually(() => nequi.textContent()).toContain("Sin verificar");
    expect(plain(await nequi.textContent())).toContain("Celular 3012345678");

    // A bank account too, and a Daviplata added by mistake and taken off.
    await page.getByRole("button", { name: "Agregar cuenta" }).click();
    await adding.getByLabel("Dónde cobrar").selectOption("cuenta_bancaria");
    await adding.getByLabel("Banco").fill("Bancolombia");
    await adding.getByLabel("Clase de cuenta").selectOption("corriente");
    await adding.getByLabel("Número de cuenta").fill("00123456789");
    await adding.getByLabel("Titular", { exact: true }).fill("Transportes del Río S.A.S.");
    await adding.getByLabel("Documento del titular").selectOption("NIT");
    await adding.getByLabel("Número de documento").fill("900123456");
    await screenshot("company-money-add-account");
    await adding.getByRole("button", { name: "Agregar cuenta" }).click();
    await said(page, "Se agregó la cuenta Bancolombia corriente ****6789");
    await page.getByRole("button", { name: "Agregar cuenta" }).click();
    await adding.getByLabel("Dónde cobrar").selectOption("daviplata");
    await adding.getByLabel("Celular").fill("3109876543");
    await adding.getByRole("button", { name: "Agregar cuenta" }).click();
    await said(page, "Se agregó la cuenta Daviplata ****6543");
    await accounts.getByRole("button", { name: "Quitar Daviplata ****6543" }).click();
    await page.getByRole("dialog", { name: "Quitar cuenta de retiro" }).getByRole("button", { name: "Quitar", exact: true }).click();
    await said(page, "Se quitó la cuenta Daviplata ****6543.");
    await eventually(() => accounts.getByRole("row").filter({ hasText: "Daviplata" }).count()).toBe(0);

    // The administrator verifies the Nequi account on the company's details, where its balance shows.
    const adminTab = await run.tab();
    await adminTab.open("empresas");
    await adminTab.signIn();
    await adminTab.page.getByRole("tab", { name: "Todas" }).click();
    await adminTab.page.getByLabel("Buscar").fill(company.nombre);
    const listed = adminTab.page.getByRole("table", { name: "Empresas" }).getByRole("row").filter({ hasText: company.nombre });
    await eventually(() => listed.count()).toBe(1);
    await listed.getByRole("button", { name: company.nombre, exact: true }).click();
    const details = adminTab.page.getByRole("dialog", { name: company.nombre });
    const companyAccounts = details.getByRole("list", { name: "Cuentas de retiro" });
    await companyAccounts.waitFor();
    expect(plain(await details.getByRole("group", { name: "Saldo por retirar" }).textContent())).toContain("$ 22.500");
    expect(plain(await companyAccounts.textContent())).toContain("Celular 3012345678");
    await companyAccounts.getByRole("button", { name: "Verificar Nequi ****5678" }).click();
    await eventually(() => details.getByRole("status").textContent()).toBe(
      `Se verificó la cuenta Nequi ****5678: ya puede recibir los retiros de ${company.nombre}.`,
    );
    await eventually(() => companyAccounts.getByRole("button", { name: "Verificar Nequi ****5678" }).count()).toBe(0);
    await companyAccounts.getByText("Verificada", { exact: true }).waitFor();
    await adminTab.screenshot("company-details-money");
    await details.getByRole("button", { name: "Cerrar" }).last().click();

    // The manager asks for a payout: the API's words below the minimum and above the balance.
    await page.reload();
    await eventually(() => nequi.textContent()).toContain("Verificada");
    await page.getByRole("button", { name: "Pedir retiro" }).click();
    expect(plain(await asking.textContent())).toContain("Tu empresa tiene $ 22.500 disponibles. Cada retiro es de al menos $ 20.000");
    expect(await asking.getByLabel("Cuenta").inputValue()).not.toBe("");
    expect(await asking.getByRole("option").allTextContents()).toEqual(["Nequi ****5678"]);
    for (const [amount, refusal] of [
      ["15000", "El campo 'monto' debe ser al menos $20.000"],
      ["30000", "El campo 'monto' pasa de tu saldo disponible"],
    ] as const) {
      await asking.getByLabel("Monto (COP)").fill(amount);
      await asking.getByRole("button", { name: "Pedir retiro" }).click();
      await eventually(() => asking.getByRole("alert").textContent()).toBe(refusal);
    }
    await asking.getByLabel("Monto (COP)").fill("20000");
    await asking.getByRole("button", { name: "Pedir retiro" }).click();
    await said(page, "Pediste el retiro");
    const first = await requestedId(page);
    await eventually(() => figure(page, "En retiro")).toBe("$ 20.000");
    expect(await figure(page, "Disponible")).toBe("$ 2.500");

    // Withdrawn before approval, the amount is back in the balance; then asked for again.
    const payouts = page.getByRole("table", { name: "Retiros" });
    await payoutRow(payouts, first)
      .getByRole("button", { name: `Cancelar retiro ${first}` })
      .click();
    const cancelling = page.getByRole("dialog", { name: "Cancelar retiro" });
    await cancelling.getByRole("button", { name: "Cancelar retiro" }).click();
    await said(page, `Cancelaste el retiro #${first}`);
    await eventually(() => figure(page, "Disponible")).toBe("$ 22.500");
    await eventually(() => payoutRow(payouts, first).textContent()).toContain("Cancelado");
    await page.getByRole("button", { name: "Pedir retiro" }).click();
    await asking.getByLabel("Monto (COP)").fill("20000");
    await asking.getByRole("button", { name: "Pedir retiro" }).click();
    await said(page, "Pediste el retiro");
    const payoutId = await requestedId(page);
    expect(payoutId).toBeGreaterThan(first);
    await eventually(() => payoutRow(payouts, payoutId).textContent()).toContain("Solicitado");
    await eventually(() =>
      movements
        .getByRole("row")
        .filter({ hasText: `Retiro ${payoutId} solicitado` })
        .count(),
    ).toBe(1);
    expect(await figure(page, "En retiro")).toBe("$ 20.000");

    // The administrator approves it, then records it paid with the transfer's reference.
    await adminTab.page.getByRole("navigation", { name: "Secciones" }).getByRole("link", { name: "Retiros y liquidación" }).click();
    const review = adminTab.page.getByRole("table", { name: "Retiros" });
    const requested = rowOf(adminTab.page, review, payoutId);
    await eventually(() => requested.count()).toBe(1);
    expect(plain(await requested.textContent())).toContain(`Empresa #${company.id}`);
    await requested.getByRole("button", { name: `Aprobar retiro ${payoutId}` }).click();
    await adminTab.page.getByRole("dialog", { name: "Aprobar retiro" }).getByRole("button", { name: "Aprobar", exact: true }).click();
    await said(adminTab.page, `Retiro #${payoutId} de $ 20.000 aprobado; falta pagarlo.`);
    await adminTab.page.getByLabel("Estado").selectOption("aprobado");
    await eventually(() => requested.count()).toBe(1);
    await requested.getByRole("button", { name: `Marcar pagado retiro ${payoutId}` }).click();
    const paying = adminTab.page.getByRole("dialog", { name: "Marcar como pagado" });
    await paying.getByLabel("Referencia del pago").fill("NEQ-778812");
    await paying.getByRole("button", { name: "Marcar pagado" }).click();
    await said(adminTab.page, `Retiro #${payoutId} de $ 20.000 marcado como pagado.`);
    // The list, read again, no longer has it among the approved ones.
    await eventually(() => requested.count()).toBe(0);

    // The settlement report, read again, has the company's line.
    await adminTab.page.reload();
    const line = adminTab.page
      .getByRole("table", { name: "Empresas en la liquidación" })
      .getByRole("row")
      .filter({ hasText: company.nombre });
    await eventually(() => line.textContent().then(plain)).toBe(`${company.nombre}$ 22.500$ 20.000$ 2.500`);
    await adminTab.page.getByRole("group", { name: "Parte de las empresas" }).waitFor();
    await adminTab.screenshot("payouts-settlement-companies");

    // The manager sees it paid, with its reference, and the balance that is left.
    await page.reload();
    await eventually(() => figure(page, "Total retirado")).toBe("$ 20.000");
    expect(await figure(page, "En retiro")).toBe("$ 0");
    expect(await figure(page, "Disponible")).toBe("$ 2.500");
    const paid = payoutRow(payouts, payoutId);
    await eventually(() => paid.textContent().then(plain)).toContain("Pagado");
    expect(plain(await paid.textContent())).toContain("Ref. NEQ-778812");
    expect(await paid.getByRole("button").count()).toBe(0);
    await screenshot("company-money");

    // On a phone the page fits the screen; the tables scroll inside their frames.
    const phone = await run.tab(PHONE);
    await phone.open("dinero");
    await phone.signIn(manager.email, PASSWORD);
    await eventually(() => figure(phone.page, "Total retirado")).toBe("$ 20.000");
    await phone.page.getByRole("table", { name: "Movimientos" }).getByRole("row").nth(1).waitFor();
    await eventually(() => phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await phone.screenshot("phone-company-money");
  });
});
