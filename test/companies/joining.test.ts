import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { activeCompany, field, freshNit, lastMailTo, signUpCompany } from "../support/companies.js";
import { newAdmin, newDriver } from "../support/drivers.js";
import { PASSWORD, registerUser, tableCounts, uniqueEmail } from "../support/fixtures.js";

let app: TestApp;
let admin: { id: number };
beforeAll(async () => {
  app = await createTestApp();
  admin = await newAdmin(app);
});
afterAll(() => app.close());

const MY_COMPANY = `{ myCompany { __typename ... on Empresa { id nombre estado motivo_rechazo } ... on Error { code message } } }`;
const MANAGERS = `{ companyManagers { __typename ... on QueryCompanyManagersSuccess { data { email } } ... on Error { code message } } }`;
const APPROVE = `mutation ($id: Int!) { approveCompany(id: $id) { __typename ... on Empresa { estado revisada_en } ... on Error { code message } } }`;
const REFUSE = `mutation ($id: Int!, $motivo: String!) {
  refuseCompany(id: $id, motivo: $motivo) { __typename ... on Empresa { estado motivo_rechazo } ... on Error { code message } }
}`;

const signUp = (fields: Record<string, unknown>) =>
  app.legacy("POST", "/auth/register.php", {
    email: uniqueEmail(),
    password: PASSWORD,
    name: "Gloria",
    lastName: "Gestora",
    phone: "3004445566",
    ...fields,
  });

describe("a company signing itself up", () => {
  it("gets an account of type empresa and a company waiting for review, through register.php", async () => {
    const response = await app.legacy("POST", "/auth/register.php", {
      email: uniqueEmail("flota"),
      password: PASSWORD,
      name: "Gloria",
      lastName: "Gestora",
      phone: "3004445566",
      tipo_usuario: "empresa",
      empresa_nombre: "Motos del Valle",
      empresa_nit: "901.234.567-8",
      empresa_email: "Contacto@MotosValle.co",
      empresa_telefono: "6024445566",
      empresa_direccion: "Calle 5 # 20-30, Cali",
    });
    expect(response.status).toBe(200);
    expect(response.body.empresa).toEqual({ id: expect.any(Number), nombre: "Motos del Valle", nit: "901234567-8", estado: "pendiente" });
    expect(response.body.user).toMatchObject({ tipo_usuario: "empresa", empresa_id: response.body.empresa.id });
    expect(response.body.message).toMatch(/revisión/);
    const stored = await app.db.company.findUniqueOrThrow({ where: { id: response.body.empresa.id } });
    expect(stored).toMatchObject({ email: "contacto@motosvalle.co", telefono: "6024445566", direccion: "Calle 5 # 20-30, Cali" });
  });

  it("is refused with a 400 naming the missing field, and nothing is written", async () => {
    const before = { ...(await tableCounts(app)), companies: await app.db.company.count() };
    const noNit = await signUp({ tipo_usuario: "empresa", empresa_nombre: "Sin NIT" });
    expect(noNit.status).toBe(400);
    expect(noNit.body.message).toMatch(/empresa_nit/);
    const nothing = await signUp({ tipo_usuario: "empresa" });
    expect(nothing.status).toBe(400);
    expect(nothing.body.message).toMatch(/empresa_nombre/);
    const passengerWithCompany = await signUp({ empresa_nombre: "Colada", empresa_nit: freshNit() });
    expect(passengerWithCompany.status).toBe(400);
    expect({ ...(await tableCounts(app)), companies: await app.db.company.count() }).toEqual(before);
  });

  it("cannot take a NIT already registered (409), and leaves no account behind", async () => {
    const { company } = await signUpCompany(app);
    const users = await app.db.user.count();
    const again = await signUp({ tipo_usuario: "empresa", empresa_nombre: "Copia", empresa_nit: company.nit });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain(company.nit);
    expect(await app.db.user.count()).toBe(users);
  });

  it("signs in and sees only that it waits for review", async () => {
    const { manager, company } = await signUpCompany(app);
    const login = await app.legacy("POST", "/auth/login.php", { email: manager.email, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(await field(app, MY_COMPANY, {}, manager.id)).toMatchObject({ __typename: "Empresa", id: company.id, estado: "pendiente" });
    expect(await field(app, MANAGERS, {}, manager.id)).toEqual({
      __typename: "ForbiddenError",
      code: "FORBIDDEN",
      message: expect.stringMatching(/revisión/),
    });
  });
});

describe("administrators reviewing a company", () => {
  it("approve it: its managers are told on their feed and by mail, and it operates", async () => {
    const { manager, company } = await signUpCompany(app, "Taxis Rionegro");
    expect(await field(app, APPROVE, { id: company.id }, admin.id)).toMatchObject({ __typename: "Empresa", estado: "activa" });
    const notice = await app.db.notification.findFirst({ where: { usuario_id: manager.id, tipo: "empresa_aprobada" } });
    expect(notice?.mensaje).toContain("Taxis Rionegro");
    const mail = await lastMailTo(app, manager.email);
    expect(mail?.asunto).toMatch(/^Tu empresa fue aprobada/);
    expect(mail?.cuerpo).toContain("Taxis Rionegro");
    expect(await field(app, MANAGERS, {}, manager.id)).toEqual({
      __typename: "QueryCompanyManagersSuccess",
      data: [{ email: manager.email }],
    });
    const entry = await app.db.auditEntry.findFirst({ where: { accion: "aprobar_empresa", objetivo_id: company.id } });
    expect(entry?.admin_id).toBe(admin.id);
    // Approving again changes nothing and tells nobody twice.
    await field(app, APPROVE, { id: company.id }, admin.id);
    expect(await app.db.notification.count({ where: { usuario_id: manager.id, tipo: "empresa_aprobada" } })).toBe(1);
  });

  it("refuse it with a reason its managers are told; a refused company cannot be approved", async () => {
    const { manager, company } = await signUpCompany(app);
    const refused = await field(app, REFUSE, { id: company.id, motivo: "El NIT no corresponde al RUT enviado" }, admin.id);
    expect(refused).toEqual({ __typename: "Empresa", estado: "rechazada", motivo_rechazo: "El NIT no corresponde al RUT enviado" });
    const mail = await lastMailTo(app, manager.email);
    expect(mail?.asunto).toMatch(/^Tu empresa no fue aprobada/);
    expect(mail?.cuerpo).toContain("El NIT no corresponde al RUT enviado");
    expect(await app.db.notification.count({ where: { usuario_id: manager.id, tipo: "empresa_rechazada" } })).toBe(1);
    expect(await field(app, MY_COMPANY, {}, manager.id)).toMatchObject({
      estado: "rechazada",
      motivo_rechazo: "El NIT no corresponde al RUT enviado",
    });
    expect(await field(app, APPROVE, { id: company.id }, admin.id)).toMatchObject({ code: "INVALID_STATE" });
  });

  it("is for administrators only: a manager cannot approve their own company", async () => {
    const { manager, company } = await signUpCompany(app);
    expect(await field(app, APPROVE, { id: company.id }, manager.id)).toMatchObject({ code: "FORBIDDEN" });
    expect((await app.db.company.findUniqueOrThrow({ where: { id: company.id } })).estado).toBe("pendiente");
  });

  it("lists the pending ones", async () => {
    const { company } = await signUpCompany(app);
    const page = await field(
      app,
      `{ companies(estado: pendiente, per_page: 100) { ... on PaginaEmpresas { items { id estado } } } }`,
      {},
      admin.id,
    );
    expect(page.items).toContainEqual({ id: company.id, estado: "pendiente" });
    expect(page.items.every((item: { estado: string }) => item.estado === "pendiente")).toBe(true);
  });
});

const CREATE = `mutation ($input: CompanyInput!, $gestor: ManagerInput) {
  createCompany(input: $input, gestor: $gestor) { __typename ... on Empresa { id estado } ... on Error { code message } }
}`;
const CHOOSE = `mutation ($email: String!, $codigo: String!, $password: String!) {
  choosePassword(email: $email, codigo: $codigo, password: $password) { __typename ... on Usuario { es_verificado } ... on Error { code message } }
}`;

const codeIn = (body: string) => body.match(/\b([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})\b/)?.[1];

describe("a company registered by an administrator with its first manager", () => {
  it("mails the manager a single-use code to choose a password, never a password", async () => {
    const email = uniqueEmail("primer.gestor");
    const created = await field(
      app,
      CREATE,
      {
        input: { nombre: "Flota Directa", nit: freshNit() },
        gestor: { email, nombre: "Pablo", apellido: "Primero", telefono: "3105556677" },
      },
      admin.id,
    );
    expect(created).toMatchObject({ __typename: "Empresa", estado: "activa" });
    const manager = await app.db.user.findUniqueOrThrow({ where: { email } });
    expect(manager).toMatchObject({ tipo_usuario: "empresa", empresa_id: created.id, es_verificado: false });
    const mail = await lastMailTo(app, email);
    const code = codeIn(mail!.cuerpo)!;
    expect(code).toBeDefined();
    expect(mail!.cuerpo).not.toMatch(/contraseña (es|temporal)/i);
    // Until then no password signs in.
    expect((await app.legacy("POST", "/auth/login.php", { email, password: "!" })).status).toBe(401);

    expect(await field(app, CHOOSE, { email, codigo: "AAAA-BBBB-CCCC-DDDD", password: PASSWORD })).toMatchObject({ code: "VALIDATION" });
    expect(await field(app, CHOOSE, { email: uniqueEmail(), codigo: code, password: PASSWORD })).toMatchObject({ code: "VALIDATION" });
    expect(await field(app, CHOOSE, { email, codigo: code.toLowerCase(), password: PASSWORD })).toEqual({
      __typename: "Usuario",
      es_verificado: true,
    });
    expect((await app.legacy("POST", "/auth/login.php", { email, password: PASSWORD })).status).toBe(200);
    // Single use.
    expect(await field(app, CHOOSE, { email, codigo: code, password: "Otra#Clave22" })).toMatchObject({ code: "VALIDATION" });
    expect((await app.legacy("POST", "/auth/login.php", { email, password: PASSWORD })).status).toBe(200);
  });

  it("refuses an address that already has an account (409) and creates no company", async () => {
    const taken = await registerUser(app);
    const companies = await app.db.company.count();
    const created = await field(
      app,
      CREATE,
      {
        input: { nombre: "Repetida", nit: freshNit() },
        gestor: { email: taken.email, nombre: "Pablo", apellido: "Primero", telefono: "3105556677" },
      },
      admin.id,
    );
    expect(created).toMatchObject({ code: "CONFLICT" });
    expect(await app.db.company.count()).toBe(companies);
  });
});

const INVITE = `mutation ($input: ManagerInput!) { inviteCompanyManager(input: $input) { __typename ... on GestorEmpresa { id } ... on Error { code message } } }`;
const REMOVE = `mutation ($id: Int!) { removeCompanyManager(usuario_id: $id) { __typename ... on GestorEmpresa { id } ... on Error { code message } } }`;

describe("a company's managers", () => {
  it("invite another person, who gets a code by mail; the last manager cannot be removed", async () => {
    const { manager, company } = await activeCompany(app, admin.id);
    const email = uniqueEmail("segundo");
    const invited = await field(app, INVITE, { input: { email, nombre: "Sara", apellido: "Segunda", telefono: "3117778899" } }, manager.id);
    expect(invited.__typename).toBe("GestorEmpresa");
    expect(codeIn((await lastMailTo(app, email))!.cuerpo)).toBeDefined();
    expect((await app.db.user.findUniqueOrThrow({ where: { id: invited.id } })).empresa_id).toBe(company.id);

    const token = await app.token(invited.id);
    expect(await field(app, REMOVE, { id: invited.id }, manager.id)).toEqual({ __typename: "GestorEmpresa", id: invited.id });
    const removed = await app.db.user.findUniqueOrThrow({ where: { id: invited.id } });
    expect(removed).toMatchObject({ es_activo: false, empresa_id: null });
    const session = await app.graphql(MY_COMPANY, {}, undefined);
    expect(session.status).toBe(401);
    const withOldToken = await app.legacy("GET", "/auth/profile.php", { userId: invited.id }, { authorization: `Bearer ${token}` });
    expect(withOldToken.status).toBe(401);

    expect(await field(app, REMOVE, { id: manager.id }, manager.id)).toMatchObject({ code: "INVALID_STATE" });
  });

  it("of another company cannot remove them (404)", async () => {
    const first = await activeCompany(app, admin.id);
    const second = await activeCompany(app, admin.id);
    await field(
      app,
      INVITE,
      { input: { email: uniqueEmail(), nombre: "Otro", apellido: "Gestor", telefono: "3117778899" } },
      first.manager.id,
    );
    expect(await field(app, REMOVE, { id: first.manager.id }, second.manager.id)).toMatchObject({ code: "NOT_FOUND" });
  });

  it("of a suspended company may read only its state", async () => {
    const { manager, company } = await activeCompany(app, admin.id);
    await field(
      app,
      `mutation ($id: Int!) { updateCompany(id: $id, input: { estado: suspendida }) { __typename } }`,
      { id: company.id },
      admin.id,
    );
    expect(await field(app, MY_COMPANY, {}, manager.id)).toMatchObject({ estado: "suspendida" });
    expect(await field(app, MANAGERS, {}, manager.id)).toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/suspendida/) });
    const driver = await newDriver(app);
    const invite = await field(
      app,
      `mutation ($e: String!) { inviteDriver(email: $e) { __typename ... on Error { code } } }`,
      { e: driver.email },
      manager.id,
    );
    expect(invite).toMatchObject({ code: "FORBIDDEN" });
  });
});
