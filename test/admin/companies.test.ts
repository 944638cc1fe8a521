import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, SIGN_IN_REQUIRED, type TestApp } from "../support/app.js";
import { registerUser, post } from "../support/fixtures.js";
import { newAdmin, newDriver } from "../support/drivers.js";

let app: TestApp;
let admin: { id: number };
beforeAll(async () => {
  app = await createTestApp();
  admin = await newAdmin(app);
});
afterAll(() => app.close());

const CREATE = `mutation ($input: CompanyInput!) {
  createCompany(input: $input) { __typename ... on Empresa { id nombre nit email estado } ... on Error { code message } }
}`;
const UPDATE = `mutation ($id: Int!, $input: CompanyInput!) {
  updateCompany(id: $id, input: $input) { __typename ... on Empresa { nombre nit telefono estado } ... on Error { code message } }
}`;

describe("companies", () => {
  it("are created, read, changed and deleted by administrators", async () => {
    const created = await app.graphql(
      CREATE,
      { input: { nombre: "Transportes Antioquia", nit: "900.123.456-7", email: "Flota@Example.com" } },
      admin.id,
    );
    expect(created.data.createCompany).toMatchObject({
      __typename: "Empresa",
      nombre: "Transportes Antioquia",
      nit: "900123456-7",
      email: "flota@example.com",
      estado: "activa",
    });
    const id = created.data.createCompany.id;
    const changed = await app.graphql(UPDATE, { id, input: { telefono: "6045551234", estado: "inactiva" } }, admin.id);
    expect(changed.data.updateCompany).toEqual({
      __typename: "Empresa",
      nombre: "Transportes Antioquia",
      nit: "900123456-7",
      telefono: "6045551234",
      estado: "inactiva",
    });

    const driver = await newDriver(app);
    await post(app, "/conductor/update_vehicle.php", { conductor_id: driver.id, empresa_id: id });
    // An inactive company takes no requests: the driver is affiliated by an administrator.
    expect(await app.db.companyAffiliation.count({ where: { conductor_id: driver.id } })).toBe(0);
    await app.legacy("PUT", "/admin/user_management.php", { admin_id: admin.id, user_id: driver.id, empresa_id: id });
    const read = await app.graphql(`query ($id: Int!) { company(id: $id) { ... on Empresa { conductores { id } } } }`, { id }, admin.id);
    expect(read.data.company.conductores).toEqual([{ id: driver.id }]);
    const all = await app.graphql(`{ companies { ... on PaginaEmpresas { items { id } } } }`, {}, admin.id);
    expect(all.data.companies.items.map((c: { id: number }) => c.id)).toContain(id);

    const deleted = await app.graphql(`mutation ($id: Int!) { deleteCompany(id: $id) { __typename } }`, { id }, admin.id);
    expect(deleted.data.deleteCompany.__typename).toBe("Eliminado");
    expect((await app.db.user.findUniqueOrThrow({ where: { id: driver.id } })).empresa_id).toBeNull();
  });

  it("keep NITs unique (409)", async () => {
    await app.graphql(CREATE, { input: { nombre: "Uno", nit: "800111222-1" } }, admin.id);
    const again = await app.graphql(CREATE, { input: { nombre: "Dos", nit: "800 111 222-1" } }, admin.id);
    expect(again.data.createCompany).toEqual({
      __typename: "ConflictError",
      code: "CONFLICT",
      message: "Ya existe una empresa con el NIT 800111222-1",
    });
    const other = await app.graphql(CREATE, { input: { nombre: "Tres", nit: "800111333" } }, admin.id);
    const clash = await app.graphql(UPDATE, { id: other.data.createCompany.id, input: { nit: "800111222-1" } }, admin.id);
    expect(clash.data.updateCompany.code).toBe("CONFLICT");
  });

  it.each([
    [{ nit: "900123456-7" }, "El campo 'nombre' es obligatorio"],
    [{ nombre: "Sin NIT" }, "El campo 'nit' es obligatorio"],
    [{ nombre: "X", nit: "abc" }, "El campo 'nit' no es un NIT válido (por ejemplo 900123456-7)"],
    [{ nombre: "X", nit: "700000001", email: "no" }, "El campo 'email' no es un correo electrónico válido"],
  ])("refuse %j", async (input, message) => {
    const { data } = await app.graphql(CREATE, { input }, admin.id);
    expect(data.createCompany).toMatchObject({ __typename: "ValidationError", message });
  });

  it("take only the states there are", async () => {
    const wrong = await app.graphql(CREATE, { input: { nombre: "X", nit: "700000002", estado: "quebrada" } }, admin.id);
    expect(wrong.errors?.[0]?.message).toMatch(/EstadoEmpresa/);
  });

  it("are for administrators only, and unknown ones are 404", async () => {
    const passenger = await registerUser(app);
    expect((await app.graphql(CREATE, { input: { nombre: "X", nit: "700000003" } }, passenger.id)).data.createCompany.__typename).toBe(
      "ForbiddenError",
    );
    expect(await app.graphql(CREATE, { input: { nombre: "X", nit: "700000003" } })).toMatchObject(SIGN_IN_REQUIRED);
    const missing = await app.graphql(UPDATE, { id: 999999, input: { nombre: "Y" } }, admin.id);
    expect(missing.data.updateCompany).toEqual({
      __typename: "NotFoundError",
      code: "NOT_FOUND",
      message: "No existe una empresa con id 999999",
    });
  });
});

describe("the companies list", () => {
  const COMPANIES = `query ($page: Int, $per_page: Int, $search: String, $estado: EstadoEmpresa, $sort: OrdenEmpresas, $order: Orden) {
    companies(page: $page, per_page: $per_page, search: $search, estado: $estado, sort: $sort, order: $order) {
      __typename
      ... on PaginaEmpresas { items { nombre } pagination { page per_page total total_pages } }
      ... on Error { message }
    }
  }`;
  const companies = async (args: Record<string, unknown>) => (await app.graphql(COMPANIES, args, admin.id)).data.companies;
  const names = async (args: Record<string, unknown>) => (await companies(args)).items.map((c: { nombre: string }) => c.nombre);
  beforeAll(async () => {
    const create = (nombre: string, nit: string, extra: Record<string, unknown> = {}) =>
      app.graphql(CREATE, { input: { nombre, nit, ...extra } }, admin.id);
    await create("Paginada Beta", "600000002", { telefono: "6047770002" });
    await create("Paginada Alfa", "600000001", { email: "alfa@paginada.co" });
    await create("Paginada Gamma", "600000003", { estado: "inactiva" });
  });

  it("pages by name with the pagination object", async () => {
    const first = await companies({ search: "paginada", per_page: 2 });
    expect(first.items.map((c: { nombre: string }) => c.nombre)).toEqual(["Paginada Alfa", "Paginada Beta"]);
    expect(first.pagination).toEqual({ page: 1, per_page: 2, total: 3, total_pages: 2 });
    expect(await names({ search: "paginada", per_page: 2, page: 2 })).toEqual(["Paginada Gamma"]);
    expect(await companies({ per_page: 101 })).toMatchObject({ __typename: "ValidationError" });
  });

  it("searches name, NIT, e-mail and phone without regard to case, and filters by state", async () => {
    expect(await names({ search: "PAGINADA gamma" })).toEqual(["Paginada Gamma"]);
    expect(await names({ search: "600000002" })).toEqual(["Paginada Beta"]);
    expect(await names({ search: "ALFA@" })).toEqual(["Paginada Alfa"]);
    expect(await names({ search: "6047770002" })).toEqual(["Paginada Beta"]);
    expect(await names({ search: "paginada", estado: "inactiva" })).toEqual(["Paginada Gamma"]);
    expect(await names({ search: "paginada", estado: "activa" })).toEqual(["Paginada Alfa", "Paginada Beta"]);
  });

  it("sorts by name, NIT, state, sign-up or id, in either order", async () => {
    expect(await names({ search: "paginada", order: "desc" })).toEqual(["Paginada Gamma", "Paginada Beta", "Paginada Alfa"]);
    expect(await names({ search: "paginada", sort: "nit", order: "desc" })).toEqual(["Paginada Gamma", "Paginada Beta", "Paginada Alfa"]);
    expect(await names({ search: "paginada", sort: "id" })).toEqual(["Paginada Beta", "Paginada Alfa", "Paginada Gamma"]);
    // Ties go by id, in the same order.
    expect(await names({ search: "paginada", sort: "estado", order: "desc" })).toEqual([
      "Paginada Gamma",
      "Paginada Alfa",
      "Paginada Beta",
    ]);
    expect(await names({ search: "paginada", sort: "creado_en" })).toEqual(["Paginada Beta", "Paginada Alfa", "Paginada Gamma"]);
  });
});
