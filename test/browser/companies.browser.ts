import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { PASSWORD } from "./support/api.js";
import { consoleRun, eventually, goTo, MANAGER_SECTIONS, PHONE, sectionNames } from "./support/console.js";

const run = consoleRun({ mail: true });

/** The single-use code of the newest "Crea tu contraseña" mail to an address. */
async function mailedCode(address: string): Promise<string> {
  const mail = await run.mail.waitFor((sent) => sent.to.includes(address) && sent.subject.startsWith("Crea tu contraseña"));
  const code = /\b([0-9A-Z]{4}(?:-[0-9A-Z]{4}){3})\b/.exec(mail.text)?.[1];
  expect(code, mail.text).toBeDefined();
  return code!;
}

/** What an administrator reads of a user's company over GraphQL. */
async function companyOf(adminToken: string, userId: number): Promise<number | null> {
  const data = await run.api.graphql(
    `query ($id: Int!) { user(userId: $id) { __typename ... on Usuario { empresa_id } ... on Error { message } } }`,
    { id: userId },
    adminToken,
  );
  return data.user.empresa_id;
}

/** Fills the sign-in page's "Crear mi contraseña": the code from the mail (typed as it comes, in any case) and a new password. */
async function fillChoosePassword(page: Page, email: string, code: string, password: string) {
  await page.getByRole("button", { name: "Crear mi contraseña" }).click();
  await page.getByRole("heading", { level: 1, name: "Crear mi contraseña" }).waitFor();
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Código").fill(code.toLowerCase());
  await page.getByLabel("Contraseña nueva").fill(password);
  await page.getByLabel("Repite la contraseña").fill(password);
}

const CHOOSE = "Crear contraseña e ingresar";

describe("companies in the console", () => {
  it("queues a company that signs up for the administrator, who approves it; its manager then signs in to its home", async () => {
    const { api } = run;
    const admin = await api.adminToken();
    const { manager, company } = await api.registerCompany("Transportes La Montaña");

    // While it waits, its manager signs in and reads only that it is in review.
    const waiting = await run.tab();
    await waiting.open();
    await waiting.signIn(manager.email, PASSWORD);
    await waiting.page.getByRole("heading", { level: 1, name: "Mi empresa" }).waitFor();
    await waiting.page.getByRole("heading", { name: "Tu empresa está en revisión" }).waitFor();
    expect(await sectionNames(waiting.page)).toEqual(MANAGER_SECTIONS);
    expect(await waiting.page.getByRole("banner").textContent()).toContain("Gloria Gestora · Transportes La Montaña");
    await waiting.screenshot("company-home-pending");
    // Its other pages say why they show nothing: the API's own words.
    await goTo(waiting.page, "Solicitudes");
    await eventually(() => waiting.page.getByRole("alert").textContent()).toMatch(/^Tu empresa está en revisión/);

    // The administrator finds it in the queue, with its count.
    const { page, open, signIn, screenshot } = await run.tab();
    await open();
    await signIn();
    await goTo(page, "Empresas");
    await page.getByRole("heading", { level: 1, name: "Empresas" }).waitFor();
    const queueTab = page.getByRole("tab", { name: /^Pendientes/ });
    expect(await queueTab.getAttribute("aria-selected")).toBe("true");
    await eventually(() => queueTab.textContent()).toBe("Pendientes1");
    const row = page.getByRole("table", { name: "Empresas por revisar" }).getByRole("row").filter({ hasText: company.nombre });
    await eventually(() => row.count()).toBe(1);
    await screenshot("companies-pending");

    // Its details name who signed it up.
    await row.getByRole("button", { name: company.nombre, exact: true }).click();
    const details = page.getByRole("dialog", { name: company.nombre });
    await details.getByRole("list", { name: "Gestores" }).waitFor();
    expect(await details.getByRole("list", { name: "Gestores" }).textContent()).toContain(manager.email);
    await screenshot("company-details");
    await details.getByRole("button", { name: "Cerrar" }).last().click();

    await row.getByRole("button", { name: `Aprobar ${company.nombre}` }).click();
    const confirm = page.getByRole("dialog", { name: "Aprobar empresa" });
    await confirm.getByRole("button", { name: "Aprobar", exact: true }).click();
    await eventually(() =>
      page
        .getByRole("status")
        .filter({ hasText: `Se aprobó la empresa ${company.nombre}` })
        .count(),
    ).toBe(1);
    expect((await api.company(admin, company.id)).estado).toBe("activa");
    // The queue no longer holds it; the list of all shows it active.
    await eventually(() => queueTab.textContent()).toBe("Pendientes0");
    await page.getByRole("tab", { name: "Todas" }).click();
    await page.getByLabel("Buscar").fill(company.nombre);
    const listed = page.getByRole("table", { name: "Empresas" }).getByRole("row").filter({ hasText: company.nombre });
    await eventually(() => listed.count()).toBe(1);
    await eventually(() => listed.textContent()).toContain("Activa");

    // The manager's home now explains that the company operates, with its figures.
    await waiting.open();
    await waiting.page.getByRole("heading", { name: "Tu empresa opera en la plataforma" }).waitFor();
    const summary = waiting.page.getByRole("region", { name: "Resumen de la empresa" });
    await summary.waitFor();
    expect(await summary.getByRole("group", { name: "Solicitudes por responder" }).textContent()).toContain("0");
    expect(await summary.getByRole("group", { name: "Gestores" }).textContent()).toContain("1");
    await waiting.screenshot("company-home");

    // On a phone, both fit without sideways scrolling.
    const phone = await run.tab(PHONE);
    await phone.open("empresas");
    await phone.signIn();
    await phone.page.getByRole("heading", { level: 1, name: "Empresas" }).waitFor();
    await phone.page.getByRole("table", { name: "Empresas por revisar" }).waitFor();
    await run.api.registerCompany("Flota del Valle");
    await phone.page.getByRole("tab", { name: "Todas" }).click();
    await phone.page.getByRole("tab", { name: /^Pendientes/ }).click();
    await eventually(() => phone.page.getByRole("row").filter({ hasText: "Flota del Valle" }).count()).toBe(1);
    await eventually(() => phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await phone.screenshot("phone-companies-pending");

    const phoneManager = await run.tab(PHONE);
    await phoneManager.open();
    await phoneManager.signIn(manager.email, PASSWORD);
    await phoneManager.page.getByRole("region", { name: "Resumen de la empresa" }).waitFor();
    await eventually(() => phoneManager.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await phoneManager.screenshot("phone-company-home");
  });

  it("tells a refused company's manager why", async () => {
    const { api } = run;
    const admin = await api.adminToken();
    const { manager, company } = await api.registerCompany("Motos Exprés");

    const { page, open, signIn } = await run.tab();
    await open("empresas");
    await signIn();
    const row = page.getByRole("row").filter({ hasText: company.nombre });
    await row.getByRole("button", { name: `Rechazar ${company.nombre}` }).click();
    const dialog = page.getByRole("dialog", { name: "Rechazar empresa" });
    await dialog.getByLabel("Motivo del rechazo").fill("El NIT no corresponde a una empresa de transporte.");
    await dialog.getByRole("button", { name: "Rechazar", exact: true }).click();
    await eventually(() =>
      page
        .getByRole("status")
        .filter({ hasText: `Se rechazó la empresa ${company.nombre}` })
        .count(),
    ).toBe(1);
    expect(await api.company(admin, company.id)).toMatchObject({
      estado: "rechazada",
      motivo_rechazo: "El NIT no corresponde a una empresa de transporte.",
    });

    const refused = await run.tab();
    await refused.open();
    await refused.signIn(manager.email, PASSWORD);
    await refused.page.getByRole("heading", { name: "La solicitud de tu empresa fue rechazada" }).waitFor();
    expect(await refused.page.getByRole("main").textContent()).toContain("Motivo: El NIT no corresponde a una empresa de transporte.");
    await refused.screenshot("company-home-refused");
  });

  it("lets the manager accept a driver who asked to join, refuse another with a reason and invite one by e-mail", async () => {
    const { api } = run;
    const admin = await api.adminToken();
    const { manager, company } = await api.activeCompany(admin, "Cooperativa Sur");
    const accepted = await api.register("conductor", "Pedro", "Arango");
    const refused = await api.register("conductor", "Luis", "Mejía");
    for (const driver of [accepted, refused]) {
      const answer = await api.legacy("POST", "/conductor/update_vehicle.php", { conductor_id: driver.id, empresa_id: company.id });
      expect(answer.message).toContain(`Tu solicitud a ${company.nombre} está pendiente`);
    }

    for (const viewport of [undefined, PHONE]) {
      const { page, open, signIn, screenshot } = await run.tab(viewport);
      await open();
      await signIn(manager.email, PASSWORD);
      await goTo(page, "Solicitudes");
      await page.getByRole("heading", { level: 1, name: "Solicitudes" }).waitFor();
      const pendingTab = page.getByRole("tab", { name: /^Pendientes/ });
      expect(await pendingTab.getAttribute("aria-selected")).toBe("true");
      await eventually(() => pendingTab.textContent()).toBe("Pendientes2");
      await eventually(() => page.getByRole("row").filter({ hasText: "Pedro Arango" }).count()).toBe(1);
      await eventually(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport?.width ?? 1280);
      await screenshot(viewport ? "phone-company-requests" : "company-requests");
    }

    const { page, open, signIn, screenshot } = await run.tab();
    await open("solicitudes");
    await signIn(manager.email, PASSWORD);
    await page.getByRole("button", { name: "Aceptar a Pedro Arango" }).click();
    await page.getByRole("dialog", { name: "Aceptar solicitud" }).getByRole("button", { name: "Aceptar", exact: true }).click();
    await eventually(() => page.getByRole("status").filter({ hasText: "Pedro Arango ya es conductor de tu empresa." }).count()).toBe(1);
    expect(await companyOf(admin, accepted.id)).toBe(company.id);

    await page.getByRole("button", { name: "Rechazar a Luis Mejía" }).click();
    const reason = page.getByRole("dialog", { name: "Rechazar solicitud" });
    await reason.getByLabel("Motivo del rechazo").fill("No tenemos cupo para motos por ahora.");
    await reason.getByRole("button", { name: "Rechazar", exact: true }).click();
    await eventually(() => page.getByRole("status").filter({ hasText: "Se rechazó la solicitud de Luis Mejía" }).count()).toBe(1);
    expect(await companyOf(admin, refused.id)).toBeNull();
    await eventually(() => page.getByRole("tab", { name: /^Pendientes/ }).textContent()).toBe("Pendientes0");

    // An invitation by e-mail, listed among those sent.
    await page.getByRole("button", { name: "Invitar conductor" }).click();
    const invite = page.getByRole("dialog", { name: "Invitar conductor" });
    await invite.getByLabel("Correo del conductor").fill("nuevo.conductor@example.com");
    await invite.getByRole("button", { name: "Enviar invitación" }).click();
    await eventually(() =>
      page.getByRole("status").filter({ hasText: "Se envió la invitación a nuevo.conductor@example.com" }).count(),
    ).toBe(1);
    await page.getByRole("tab", { name: /^Invitaciones/ }).click();
    await eventually(() => page.getByRole("row").filter({ hasText: "nuevo.conductor@example.com" }).count()).toBe(1);
    // Everything answered, with what was said.
    await page.getByRole("tab", { name: "Todas" }).click();
    const history = page.getByRole("row").filter({ hasText: "Luis Mejía" });
    await eventually(() => history.textContent()).toContain("No tenemos cupo para motos por ahora.");
    await screenshot("company-requests-all");
  });

  it("lets the manager invite another manager, who chooses a password with the mailed code; the last manager stays", async () => {
    const { api } = run;
    const admin = await api.adminToken();
    const { manager } = await api.activeCompany(admin, "Taxis del Norte");

    const { page, open, signIn, screenshot } = await run.tab();
    await open("gestores");
    await signIn(manager.email, PASSWORD);
    await page.getByRole("heading", { level: 1, name: "Gestores" }).waitFor();
    // The only manager cannot be taken off: the API says why.
    await page.getByRole("button", { name: "Quitar a Gloria Gestora" }).click();
    const remove = page.getByRole("dialog", { name: "Quitar gestor" });
    await remove.getByRole("button", { name: "Quitar", exact: true }).click();
    await eventually(() => remove.getByRole("alert").textContent()).toBe(
      "Es el único gestor de la empresa: invita a otro antes de quitarlo",
    );
    await screenshot("managers-last-one");
    await remove.getByRole("button", { name: "Cancelar" }).click();

    await page.getByRole("button", { name: "Invitar gestor" }).click();
    const invite = page.getByRole("dialog", { name: "Invitar gestor" });
    const person = invite.getByRole("group", { name: "Nuevo gestor" });
    await person.getByLabel("Nombre").fill("Mateo");
    await person.getByLabel("Apellido").fill("Cárdenas");
    await person.getByLabel("Correo").fill("mateo.cardenas@example.com");
    await person.getByLabel("Teléfono").fill("3207778899");
    await invite.getByRole("button", { name: "Invitar gestor" }).click();
    await eventually(() => page.getByRole("status").filter({ hasText: "Se invitó a Mateo Cárdenas" }).count()).toBe(1);
    const invited = page.getByRole("row").filter({ hasText: "mateo.cardenas@example.com" });
    await eventually(() => invited.textContent()).toContain("Sin confirmar");
    await screenshot("managers");

    // The new manager redeems the mailed code on the sign-in page and is in.
    const code = await mailedCode("mateo.cardenas@example.com");
    const newcomer = await run.tab();
    await newcomer.open();
    await fillChoosePassword(newcomer.page, "mateo.cardenas@example.com", code, "Nueva#Clave2");
    await newcomer.screenshot("choose-password");
    await newcomer.page.getByRole("button", { name: CHOOSE }).click();
    await newcomer.page.getByRole("heading", { name: "Tu empresa opera en la plataforma" }).waitFor();
    expect(await newcomer.page.getByRole("banner").textContent()).toContain("Mateo Cárdenas · Taxis del Norte");
    // The code served once.
    const again = await run.tab();
    await again.open();
    await fillChoosePassword(again.page, "mateo.cardenas@example.com", code, "Otra#Clave3");
    await again.page.getByRole("button", { name: CHOOSE }).click();
    await eventually(() => again.page.getByRole("alert").textContent()).toMatch(/codigo.*venció, ya se usó o no es correcto/);

    await page.reload();
    await eventually(() => invited.textContent()).toContain("Correo confirmado");
    // With two, one can go.
    await page.getByRole("button", { name: "Quitar a Mateo Cárdenas" }).click();
    await remove.getByRole("button", { name: "Quitar", exact: true }).click();
    await eventually(() => page.getByRole("status").filter({ hasText: "Mateo Cárdenas ya no gestiona la empresa." }).count()).toBe(1);
    await eventually(() => invited.count()).toBe(0);
  });

  it("lets an administrator create a company with its first manager and set its share", async () => {
    const { api } = run;
    const admin = await api.adminToken();
    const { page, open, signIn, screenshot } = await run.tab();
    await open("empresas");
    await signIn();
    await page.getByRole("button", { name: "Nueva empresa" }).click();
    const dialog = page.getByRole("dialog", { name: "Nueva empresa" });
    const fields = dialog.getByRole("group", { name: "Empresa" });
    await fields.getByLabel("Nombre").fill("Rutas de Oriente");
    await fields.getByLabel("NIT").fill("901234567-8");
    const first = dialog.getByRole("group", { name: "Primer gestor" });
    await first.getByLabel("Nombre").fill("Sara");
    await first.getByLabel("Apellido").fill("Ospina");
    await first.getByLabel("Correo").fill("sara.ospina@example.com");
    await first.getByLabel("Teléfono").fill("3151234567");
    await screenshot("company-new");
    await dialog.getByRole("button", { name: "Crear empresa" }).click();
    await eventually(() => page.getByRole("status").filter({ hasText: "Se creó la empresa Rutas de Oriente" }).count()).toBe(1);

    await page.getByRole("tab", { name: "Todas" }).click();
    await page.getByLabel("Buscar").fill("Rutas de Oriente");
    const row = page.getByRole("table", { name: "Empresas" }).getByRole("row").filter({ hasText: "Rutas de Oriente" });
    await eventually(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain("0 %");
    await row.getByRole("button", { name: "Comisión Rutas de Oriente" }).click();
    const share = page.getByRole("dialog", { name: "Parte de la comisión" });
    await share.getByLabel("Parte de la comisión (%)").fill("12,5");
    await share.getByRole("button", { name: "Guardar" }).click();
    await eventually(() => page.getByRole("status").textContent()).toBe("La parte de Rutas de Oriente quedó en 12,5 % de la comisión.");
    await eventually(() => row.textContent()).toContain("12,5 %");
    await screenshot("companies");
    const id = Number(
      (await api.graphql(`{ companies(search: "Rutas de Oriente") { ... on PaginaEmpresas { items { id } } } }`, {}, admin)).companies
        .items[0].id,
    );
    expect(await api.company(admin, id)).toMatchObject({ estado: "activa", porcentaje_comision: 12.5 });

    // Its manager comes in with the mailed code and reads the share.
    const code = await mailedCode("sara.ospina@example.com");
    const managerTab = await run.tab();
    await managerTab.open();
    await fillChoosePassword(managerTab.page, "sara.ospina@example.com", code, "Sara#Clave2024");
    // Two passwords that differ are caught before anything is sent.
    await managerTab.page.getByLabel("Repite la contraseña").fill("Sara#Clave2025");
    await managerTab.page.getByRole("button", { name: CHOOSE }).click();
    await eventually(() => managerTab.page.getByRole("alert").textContent()).toBe("Las dos contraseñas no coinciden.");
    await managerTab.page.getByLabel("Repite la contraseña").fill("Sara#Clave2024");
    await managerTab.page.getByRole("button", { name: CHOOSE }).click();
    const summary = managerTab.page.getByRole("region", { name: "Resumen de la empresa" });
    await summary.waitFor();
    expect(await summary.getByRole("group", { name: "Parte de la comisión" }).textContent()).toContain("12,5 %");
  });

  it("shows a manager none of the administrators' pages, by menu or by address, and the API refuses them its operations", async () => {
    const { api } = run;
    const admin = await api.adminToken();
    const { manager, company } = await api.activeCompany(admin, "Flota Central");

    const { page, open, signIn, screenshot } = await run.tab();
    await open();
    await signIn(manager.email, PASSWORD);
    expect(await sectionNames(page)).toEqual(MANAGER_SECTIONS);
    // The home page has asked all it asks once its figures show.
    await page.getByRole("region", { name: "Resumen de la empresa" }).waitFor();
    await page.getByRole("region", { name: "Este mes" }).waitFor();
    const asked: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/graphql")) asked.push(request.postData() ?? "");
    });
    for (const path of ["empresas", "usuarios", "tarifas", "retiros", "auditoria"]) {
      await open(path);
      await page.getByRole("heading", { level: 1, name: "Página no encontrada" }).waitFor();
      expect(await page.getByRole("main").getByRole("heading").allTextContents()).toEqual(["Página no encontrada"]);
      expect(await page.getByRole("table").count()).toBe(0);
    }
    await screenshot("company-admin-page-refused");
    // Nothing was even asked of the API for them.
    expect(asked).toEqual([]);

    // The addresses both roles have open the company's own pages, which ask for the company's data only.
    for (const [path, title, table] of [
      ["viajes", "Viajes", "Viajes de la empresa"],
      ["conductores", "Conductores", "Conductores de la empresa"],
      ["mapa", "Mapa en vivo", "Viajes activos"],
    ] as const) {
      await open(path);
      await page.getByRole("heading", { level: 1, name: title }).waitFor();
      await page.getByRole("table", { name: table }).waitFor();
    }
    // A driver of no company of theirs: the API's words, and nothing of the driver.
    await open("conductores/1");
    await eventually(() => page.getByRole("alert").textContent()).toBe(`${company.nombre} no tiene un conductor con id 1`);
    expect(await page.getByRole("main").getByRole("heading", { level: 1 }).textContent()).toBe("Conductor");
    const operations = asked.map((body) => JSON.parse(body).query as string);
    expect(operations.length).toBeGreaterThan(0);
    for (const operation of operations) {
      expect(operation).not.toMatch(/\b(trips|drivers|liveDrivers|driverProfile|driverDocumentHistory|platformStats|companies)\b/);
    }

    const token = await api.login(manager.email, PASSWORD);
    const refusals = await api.graphql(
      `mutation ($id: Int!) {
        approveCompany(id: $id) { __typename }
        setCompanyShare(id: $id, porcentaje: 50) { __typename }
        updateCompany(id: $id, input: { estado: activa }) { __typename }
      }`,
      { id: company.id },
      token,
    );
    expect(refusals).toEqual({
      approveCompany: { __typename: "ForbiddenError" },
      setCompanyShare: { __typename: "ForbiddenError" },
      updateCompany: { __typename: "ForbiddenError" },
    });
    const other = await api.activeCompany(admin, "Flota Vecina");
    const reads = await api.graphql(
      `query ($other: Int!) {
        companies { __typename }
        users { __typename }
        trips { __typename }
        drivers { __typename }
        driverProfile(conductor_id: 1) { __typename }
        liveDrivers(norte: 6.42, sur: 6.08, este: -75.45, oeste: -75.72) { __typename }
        platformStats { __typename }
        companyFigures(empresa_id: $other) { __typename }
        companyDrivers(empresa_id: $other) { __typename }
        companyTrips(empresa_id: $other) { __typename }
      }`,
      { other: other.company.id },
      token,
    );
    expect(Object.entries(reads).map(([name, result]: [string, any]) => [name, result.__typename])).toEqual(
      Object.keys(reads).map((name) => [name, "ForbiddenError"]),
    );
    // The legacy administrators' calls refuse the manager's id as well.
    const legacy = await fetch(`${run.base}/admin/audit_logs.php?admin_id=${manager.id}`);
    expect(legacy.status).toBe(403);
  });
});
