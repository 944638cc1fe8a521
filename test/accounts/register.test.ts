import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { PASSWORD, latestCode, registerUser, tableCounts, uniqueEmail } from "../support/fixtures.js";

let app: TestApp;
const clock = new FixedClock("2026-05-04T14:00:00.000Z");
beforeAll(async () => {
  app = await createTestApp({ clock });
});
afterAll(() => app.close());

const validBody = () => ({
  email: uniqueEmail("nuevo"),
  password: PASSWORD,
  name: "Camila",
  lastName: "Vélez",
  phone: "+57 300 123 4567",
});

describe("POST /auth/register.php", () => {
  it("mails the 6-digit code greeting only the plain words of the name: anyone may sign up with any address", async () => {
    const body = { ...validBody(), name: "Gana <b>ya</b> en http://premio.example" };
    expect((await app.legacy("POST", "/auth/register.php", body)).status).toBe(200);
    const mail = await app.db.outboxMail.findFirstOrThrow({ where: { destinatario: body.email } });
    expect(mail.cuerpo).toMatch(/^Hola Gana byab en, tu código de verificación es \d{6}\. Vence en 10 minutos\.\n\n— Viax$/);
    expect(mail.vence_en).toEqual(new Date(clock.now().getTime() + 10 * 60 * 1000));
  });

  it("creates a passenger and answers 200 with the user", async () => {
    const body = { ...validBody(), email: "  Camila.Velez@Example.COM " };
    const response = await app.legacy("POST", "/auth/register.php", body);
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.message).toMatch(/código de verificación/);
    const user = response.body.user;
    expect(user).toMatchObject({
      nombre: "Camila",
      apellido: "Vélez",
      email: "camila.velez@example.com",
      telefono: "+57 300 123 4567",
      tipo_usuario: "pasajero",
      es_activo: true,
      es_verificado: false,
      empresa_id: null,
      calificacion: 0,
      location: null,
    });
    expect(Number.isInteger(user.id)).toBe(true);
    expect(user.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(user.creado_en).toISOString()).toBe(user.creado_en);
    expect(user.actualizado_en).toEqual(expect.any(String));
  });

  it("stores the password as a bcrypt hash", async () => {
    const user = await registerUser(app);
    const row = await app.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.password_hash).not.toContain(PASSWORD);
    expect(row.password_hash).toMatch(/^\$2[aby]\$\d\d\$/);
  });

  it("creates the primary location from the address fields and the lat/lng alternates", async () => {
    const user = await registerUser(app, {
      address: "Cra 43A # 1-50",
      city: "Medellín",
      state: "Antioquia",
      country: "Colombia",
      lat: 6.2,
      lng: -75.57,
    });
    expect(user.location).toMatchObject({
      usuario_id: user.id,
      direccion: "Cra 43A # 1-50",
      ciudad: "Medellín",
      departamento: "Antioquia",
      pais: "Colombia",
      latitud: 6.2,
      longitud: -75.57,
      codigo_postal: null,
      es_principal: true,
    });
  });

  it("prefers latitude/longitude over lat/lng and accepts coordinates alone", async () => {
    const user = await registerUser(app, { latitude: 4.6, longitude: -74.08, lat: 1, lng: 1 });
    expect(user.location).toMatchObject({ latitud: 4.6, longitud: -74.08, direccion: null });
  });

  it("sends a 6-digit code valid for 10 minutes through the outbox", async () => {
    const user = await registerUser(app);
    expect(await latestCode(app, user.email)).toMatch(/^\d{6}$/);
    const code = await app.db.emailVerification.findFirstOrThrow({ where: { usuario_id: user.id } });
    expect(code.expira_en.getTime() - code.creado_en.getTime()).toBe(10 * 60 * 1000);
    expect(code.creado_en.toISOString()).toBe(clock.now().toISOString());
  });

  it("creates an empty driver profile for drivers", async () => {
    const user = await registerUser(app, { tipo_usuario: "conductor" });
    expect(user.tipo_usuario).toBe("conductor");
    const profile = await app.db.driverProfile.findUniqueOrThrow({ where: { conductor_id: user.id } });
    expect(profile).toMatchObject({ nombre_completo: "Ana Restrepo", aprobado: false, estado_revision: "pendiente" });
  });

  it("refuses a second account with the same e-mail, whatever its case, with 409", async () => {
    const user = await registerUser(app);
    const before = await tableCounts(app);
    const response = await app.legacy("POST", "/auth/register.php", { ...validBody(), email: user.email.toUpperCase() });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ success: false, message: `Ya existe una cuenta con el correo ${user.email}` });
    expect(await tableCounts(app)).toEqual(before);
  });

  it("lets exactly one of many simultaneous sign-ups with one e-mail through", async () => {
    const email = uniqueEmail("carrera");
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => app.legacy("POST", "/auth/register.php", { ...validBody(), email })),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    expect(await app.db.user.count({ where: { email } })).toBe(1);
  });

  it("says why a password is refused and how to choose a better one", async () => {
    const response = await app.legacy("POST", "/auth/register.php", { ...validBody(), password: "corta1" });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      message:
        "El campo 'password' debe tener al menos 8 caracteres; usa una frase de tres o cuatro palabras poco comunes " +
        "que no tengan que ver contigo; no hacen falta mayúsculas, números ni símbolos",
    });
  });

  it.each([
    [{ email: "no-es-correo" }, "El campo 'email' no es un correo electrónico válido"],
    [{ email: undefined }, "El campo 'email' es obligatorio"],
    [{ name: undefined }, "El campo 'name' es obligatorio"],
    [{ name: "   " }, "El campo 'name' no puede estar vacío"],
    [{ lastName: { texto: "x" } }, "El campo 'lastName' debe ser un texto"],
    [{ phone: "abc" }, "El campo 'phone' no es un teléfono válido (7 a 15 dígitos)"],
    [{ tipo_usuario: "admin" }, "El campo 'tipo_usuario' debe ser uno de: pasajero, conductor, empresa"],
    [{ latitude: 91, longitude: 0 }, "El campo 'latitude' debe estar entre -90 y 90"],
    [{ latitude: "norte", longitude: 0 }, "El campo 'latitude' debe ser un número"],
    [{ lat: 6.2 }, "El campo 'longitude' es obligatorio cuando se envía la otra coordenada"],
  ])("answers 400 for %j", async (change, message) => {
    const before = await tableCounts(app);
    const response = await app.legacy("POST", "/auth/register.php", { ...validBody(), ...change });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, message });
    expect(await tableCounts(app)).toEqual(before);
  });
});

describe("register over GraphQL", () => {
  const REGISTER = `mutation ($input: RegisterInput!) {
    register(input: $input) {
      __typename
      ... on Usuario { id email tipo_usuario location { ciudad latitud } }
      ... on Error { code message }
      ... on ValidationError { field reason }
    }
  }`;

  it("creates the account with the spec field names", async () => {
    const email = uniqueEmail("gql");
    const { data } = await app.graphql(REGISTER, {
      input: {
        email,
        password: PASSWORD,
        nombre: "Iván",
        apellido: "Mora",
        telefono: "3109998877",
        ciudad: "Cali",
        latitud: 3.45,
        longitud: -76.53,
      },
    });
    expect(data.register).toMatchObject({
      __typename: "Usuario",
      email,
      tipo_usuario: "pasajero",
      location: { ciudad: "Cali", latitud: 3.45 },
    });
  });

  it("returns typed errors naming the GraphQL field", async () => {
    const { data } = await app.graphql(REGISTER, {
      input: { email: uniqueEmail(), password: PASSWORD, nombre: "", apellido: "Mora", telefono: "3109998877" },
    });
    expect(data.register).toEqual({
      __typename: "ValidationError",
      code: "VALIDATION",
      message: "El campo 'nombre' no puede estar vacío",
      field: "nombre",
      reason: "no puede estar vacío",
    });
    const duplicate = await registerUser(app);
    const again = await app.graphql(REGISTER, {
      input: { email: duplicate.email, password: PASSWORD, nombre: "X", apellido: "Y", telefono: "3109998877" },
    });
    expect(again.data.register).toMatchObject({ __typename: "ConflictError", code: "CONFLICT" });
  });
});
