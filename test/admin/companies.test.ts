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
    const read = await app.graphql(`query ($id: Int!) { company(id: $id) { ... on Empresa { conductores { id } } } }`, { id }, admin.id);
    expect(read.data.company.conductores).toEqual([{ id: driver.id }]);
    const all = await app.graphql(`{ companies { ... on QueryCompaniesSuccess { data { id } } } }`, {}, admin.id);
    expect(all.data.companies.data.map((c: { id: number }) => c.id)).toContain(id);

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
    [{ nombre: "X", nit: "700000002", estado: "quebrada" }, "El campo 'estado' debe ser uno de: activa, inactiva"],
  ])("refuse %j", async (input, message) => {
    const { data } = await app.graphql(CREATE, { input }, admin.id);
    expect(data.createCompany).toMatchObject({ __typename: "ValidationError", message });
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
