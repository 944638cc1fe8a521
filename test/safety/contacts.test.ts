import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_CONTACTS } from "../../src/domain/safety/contacts.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { registerUser } from "../support/fixtures.js";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const PATH = "/user/contactos_emergencia.php";
const CONTACT = "id nombre telefono email";

const add = (userId: number, input: Record<string, unknown>) =>
  app.graphql(
    `mutation ($input: ContactoEmergenciaInput!) {
      addEmergencyContact(input: $input) {
        __typename ... on ContactoEmergencia { ${CONTACT} } ... on Error { code message } ... on ValidationError { field }
      }
    }`,
    { input },
    userId,
  );

const list = async (userId: number) =>
  (
    await app.graphql(
      `query { emergencyContacts { __typename ... on QueryEmergencyContactsSuccess { data { ${CONTACT} } } ... on Error { message } } }`,
      {},
      userId,
    )
  ).data.emergencyContacts.data;

const stored = (userId: number) => app.db.emergencyContact.count({ where: { usuario_id: userId } });

describe("emergency contacts over GraphQL", () => {
  it("keeps a name with a Colombian mobile as its 10 digits, an e-mail in lower case, or both, oldest first", async () => {
    const user = await registerUser(app);
    const mobile = await add(user.id, { nombre: " Marta Restrepo ", telefono: "+57 300-123 4567" });
    expect(mobile.data.addEmergencyContact).toMatchObject({
      __typename: "ContactoEmergencia",
      nombre: "Marta Restrepo",
      telefono: "3001234567",
    });
    const mail = await add(user.id, { nombre: "Jorge", email: "Jorge.Familia@Example.com" });
    expect(mail.data.addEmergencyContact).toMatchObject({ telefono: null, email: "jorge.familia@example.com" });
    await add(user.id, { nombre: "Lucía", telefono: "3109876543", email: "lucia@example.com" });
    expect((await list(user.id)).map((contact: { nombre: string }) => contact.nombre)).toEqual(["Marta Restrepo", "Jorge", "Lucía"]);
  });

  it.each([
    [{ nombre: "Sin medio" }, "telefono", "es obligatorio si no das un correo: indica un celular, un correo o ambos"],
    [{ nombre: "Fijo", telefono: "6044445566" }, "telefono", "debe ser un celular colombiano de 10 dígitos que empiece por 3"],
    [{ nombre: "Corto", telefono: "300123" }, "telefono", "debe ser un celular colombiano de 10 dígitos que empiece por 3"],
    [{ nombre: "Correo", email: "no-es-correo" }, "email", "no es un correo electrónico válido"],
    [{ nombre: "   ", telefono: "3001234567" }, "nombre", "no puede estar vacío"],
    [{ nombre: "x".repeat(101), telefono: "3001234567" }, "nombre", "admite como máximo 100 caracteres"],
  ])("refuses %j naming the field, and stores nothing", async (input, field, reason) => {
    const user = await registerUser(app);
    const { data } = await add(user.id, input);
    expect(data.addEmergencyContact).toEqual({
      __typename: "ValidationError",
      code: "VALIDATION",
      field,
      message: `El campo '${field}' ${reason}`,
    });
    expect(await stored(user.id)).toBe(0);
  });

  it(`keeps at most ${MAX_CONTACTS}, even when several are added at once`, async () => {
    const user = await registerUser(app);
    const answers = await Promise.all(
      Array.from({ length: MAX_CONTACTS + 2 }, (_, i) => add(user.id, { nombre: `Contacto ${i}`, telefono: `30012345${10 + i}` })),
    );
    const types = answers.map((answer) => answer.data.addEmergencyContact.__typename).sort();
    expect(types).toEqual([...Array(MAX_CONTACTS).fill("ContactoEmergencia"), "ConflictError", "ConflictError"].sort());
    expect(answers.find((answer) => answer.data.addEmergencyContact.__typename === "ConflictError")!.data.addEmergencyContact.message).toBe(
      `Ya tienes ${MAX_CONTACTS} contactos de emergencia; quita uno para agregar otro`,
    );
    expect(await stored(user.id)).toBe(MAX_CONTACTS);
  });

  it("removes only the caller's own: somebody else's is not found, and stays", async () => {
    const [owner, other] = [await registerUser(app), await registerUser(app)];
    const contact = (await add(owner.id, { nombre: "Marta", telefono: "3001234567" })).data.addEmergencyContact;
    const REMOVE = `mutation ($id: Int!) { removeEmergencyContact(contacto_id: $id) { __typename ... on Eliminado { id } ... on Error { message } } }`;
    const foreign = await app.graphql(REMOVE, { id: contact.id }, other.id);
    expect(foreign.data.removeEmergencyContact).toEqual({
      __typename: "NotFoundError",
      message: `No tienes un contacto de emergencia con id ${contact.id}`,
    });
    expect(await stored(owner.id)).toBe(1);
    expect((await app.graphql(REMOVE, { id: contact.id }, owner.id)).data.removeEmergencyContact).toEqual({
      __typename: "Eliminado",
      id: contact.id,
    });
    expect(await list(owner.id)).toEqual([]);
  });
});

describe(`the legacy ${PATH}`, () => {
  it("adds with usuario_id, lists under contactos and removes by contacto_id", async () => {
    const user = await registerUser(app);
    const added = await app.legacy("POST", PATH, {
      usuario_id: user.id,
      nombre: "Marta",
      telefono: 3001234567,
      email: "marta@example.com",
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body).toEqual({
      success: true,
      message: "Contacto de emergencia agregado",
      contacto: { id: expect.any(Number), nombre: "Marta", telefono: "3001234567", email: "marta@example.com" },
    });
    await app.legacy("POST", PATH, { usuario_id: user.id, nombre: "Jorge", email: "jorge@example.com" });

    const listed = await app.legacy("GET", PATH, { usuario_id: String(user.id) });
    expect(listed.status).toBe(200);
    expect(listed.body.contactos).toEqual([
      { id: added.body.contacto.id, nombre: "Marta", telefono: "3001234567", email: "marta@example.com" },
      { id: expect.any(Number), nombre: "Jorge", telefono: null, email: "jorge@example.com" },
    ]);

    const removed = await app.legacy("DELETE", PATH, { usuario_id: user.id, contacto_id: added.body.contacto.id });
    expect(removed.body).toEqual({ success: true, message: "Contacto de emergencia eliminado", contacto_id: added.body.contacto.id });
    expect(
      (await app.legacy("GET", PATH, { usuario_id: String(user.id) })).body.contactos.map((c: { nombre: string }) => c.nombre),
    ).toEqual(["Jorge"]);
  });

  it.each([
    ["POST", { nombre: "Marta", telefono: "3001234567" }, 400, "El campo 'usuario_id' es obligatorio"],
    [
      "POST",
      { usuario_id: true, nombre: "Marta" },
      400,
      "El campo 'telefono' es obligatorio si no das un correo: indica un celular, un correo o ambos",
    ],
    ["POST", { usuario_id: true, telefono: "3001234567" }, 400, "El campo 'nombre' es obligatorio"],
    [
      "POST",
      { usuario_id: true, nombre: "Marta", telefono: "123" },
      400,
      "El campo 'telefono' debe ser un celular colombiano de 10 dígitos que empiece por 3",
    ],
    ["POST", { usuario_id: true, nombre: "Marta", email: "marta@" }, 400, "El campo 'email' no es un correo electrónico válido"],
    ["POST", { usuario_id: true, nombre: ["Marta"], telefono: "3001234567" }, 400, "El campo 'nombre' debe ser un texto"],
    ["DELETE", { usuario_id: true }, 400, "El campo 'contacto_id' es obligatorio"],
    ["DELETE", { usuario_id: true, contacto_id: "uno" }, 400, "El campo 'contacto_id' debe ser un número entero"],
    ["DELETE", { usuario_id: true, contacto_id: 999_999 }, 404, "No tienes un contacto de emergencia con id 999999"],
  ])("%s %j answers %i in Spanish, naming what is wrong, and writes nothing", async (method, fields, status, message) => {
    const user = await registerUser(app);
    // `usuario_id: true` stands for the caller's own id.
    const body = { ...fields, ...("usuario_id" in fields ? { usuario_id: user.id } : {}) };
    const answer = await app.legacy(method, PATH, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body).toEqual({ success: false, message });
    expect(await stored(user.id)).toBe(0);
  });

  it("refuses a fourth contact with 409, and a usuario_id that names nobody with 404", async () => {
    const user = await registerUser(app);
    for (const nombre of ["Uno", "Dos", "Tres"]) {
      expect((await app.legacy("POST", PATH, { usuario_id: user.id, nombre, telefono: "3001234567" })).status).toBe(200);
    }
    const fourth = await app.legacy("POST", PATH, { usuario_id: user.id, nombre: "Cuatro", telefono: "3001234567" });
    expect(fourth.status).toBe(409);
    expect(fourth.body.message).toBe("Ya tienes 3 contactos de emergencia; quita uno para agregar otro");
    expect(await stored(user.id)).toBe(3);
    const nobody = await app.legacy("POST", PATH, { usuario_id: 987_654, nombre: "Marta", telefono: "3001234567" });
    expect(nobody.status).toBe(404);
    expect(nobody.body.message).toBe("No existe un usuario con id 987654");
    expect(await stored(987_654)).toBe(0);
  });
});
