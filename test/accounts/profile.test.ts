import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAdmin } from "../support/drivers.js";
import { createTestApp, SIGN_IN_REQUIRED, type TestApp } from "../support/app.js";
import { registerUser, tableCounts } from "../support/fixtures.js";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

describe("POST /auth/check_user.php", () => {
  it("says whether an account exists", async () => {
    const user = await registerUser(app);
    const yes = await app.legacy("POST", "/auth/check_user.php", { email: user.email.toUpperCase() });
    expect(yes.status).toBe(200);
    expect(yes.body).toMatchObject({ success: true, exists: true });
    const no = await app.legacy("POST", "/auth/check_user.php", { email: "nadie@example.com" });
    expect(no.body).toMatchObject({ success: true, exists: false });
  });

  it("answers 400 without a valid e-mail", async () => {
    expect((await app.legacy("POST", "/auth/check_user.php", {})).body).toEqual({
      success: false,
      message: "El campo 'email' es obligatorio",
    });
    expect((await app.legacy("POST", "/auth/check_user.php", { email: "x" })).status).toBe(400);
  });
});

describe("GET /auth/profile.php", () => {
  it("finds a user by userId or by email", async () => {
    const user = await registerUser(app, { address: "Calle 10 # 43-12", city: "Medellín" });
    const byId = await app.legacy("GET", "/auth/profile.php", { userId: String(user.id) });
    expect(byId.status).toBe(200);
    // The user at the top (spec), and under data in pingo's words with the location beside it (its UserService.getProfile).
    const inApp = { ...user, tipo_usuario: "cliente", es_activo: 1, es_verificado: 0 };
    const expected = { success: true, user, location: user.location, data: { user: inApp, location: user.location } };
    expect(byId.body).toEqual(expected);
    expect(user.location).toMatchObject({ direccion: "Calle 10 # 43-12", ciudad: "Medellín" });
    const byEmail = await app.legacy("GET", "/auth/profile.php", { email: user.email });
    expect(byEmail.body).toEqual(expected);
  });

  it("looks the user up with one planned statement before reading what the profile shows", async () => {
    const user = await registerUser(app);
    await app.legacy("GET", "/auth/profile.php", { userId: String(user.id) });
    const before = app.queries.length;
    const again = await app.legacy("GET", "/auth/profile.php", { email: user.email });
    expect(again.status).toBe(200);
    const sent = app.queries.slice(before);
    // The lookup, then the user with the main location.
    expect(sent).toHaveLength(3);
    expect(sent[0]).toMatch(/^SELECT t0\..*usuarios/s);
  });

  it.each([
    [{}, 400],
    [{ userId: "1", email: "a@b.co" }, 400],
    [{ userId: "uno" }, 400],
    [{ userId: "0" }, 400],
    [{ userId: "999999" }, 404],
    [{ email: "nadie@example.com" }, 404],
  ])("answers %j with %i", async (query, status) => {
    const response = await app.legacy("GET", "/auth/profile.php", query);
    expect(response.status).toBe(status);
    expect(response.body.success).toBe(false);
    expect(response.body.message).toEqual(expect.any(String));
  });

  it("explains the one-of rule", async () => {
    const response = await app.legacy("GET", "/auth/profile.php", {});
    expect(response.body.message).toBe("Envía exactamente uno de los campos 'userId' o 'email'");
  });
});

describe("POST /auth/profile_update.php", () => {
  const update = (body: Record<string, unknown>) => app.legacy("POST", "/auth/profile_update.php", body);

  it("maps name, lastName and phone and never changes the e-mail", async () => {
    const user = await registerUser(app);
    const response = await update({
      userId: user.id,
      name: "Mariana",
      lastName: "Ospina",
      phone: "3157654321",
      email: "otro@example.com",
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.message).toBe("Perfil actualizado");
    expect(response.body.user).toMatchObject({ nombre: "Mariana", apellido: "Ospina", telefono: "3157654321", email: user.email });
    const row = await app.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.email).toBe(user.email);
  });

  it("changes only the fields sent", async () => {
    const user = await registerUser(app, { city: "Pasto" });
    const response = await update({ userId: user.id, phone: "3001112233" });
    expect(response.body.user).toMatchObject({ nombre: user.nombre, apellido: user.apellido, telefono: "3001112233" });
    expect(response.body.user.location).toEqual(user.location);
  });

  it("creates the primary location when there is none", async () => {
    const user = await registerUser(app);
    expect(user.location).toBeNull();
    const response = await update({ userId: user.id, address: "Cl. 50 #46-36", city: "Medellín", state: "Antioquia", country: "Colombia" });
    expect(response.body.user.location).toMatchObject({
      direccion: "Cl. 50 #46-36",
      ciudad: "Medellín",
      departamento: "Antioquia",
      pais: "Colombia",
      es_principal: true,
    });
    expect(await app.db.userLocation.count({ where: { usuario_id: user.id } })).toBe(1);
  });

  it("updates the existing primary location in place, with latitude/longitude or lat/lng", async () => {
    const user = await registerUser(app, { city: "Cali", latitude: 3.4, longitude: -76.5 });
    const first = await update({ userId: user.id, latitude: 3.45, longitude: -76.53 });
    expect(first.body.user.location).toMatchObject({ id: user.location.id, ciudad: "Cali", latitud: 3.45, longitud: -76.53 });
    const second = await update({ userId: user.id, lat: 3.5, lng: -76.6, city: "Yumbo" });
    expect(second.body.user.location).toMatchObject({ id: user.location.id, ciudad: "Yumbo", latitud: 3.5, longitud: -76.6 });
    expect(await app.db.userLocation.count({ where: { usuario_id: user.id } })).toBe(1);
  });

  it.each([
    [{}, 400, "El campo 'userId' es obligatorio"],
    [{ userId: "x" }, 400, "El campo 'userId' debe ser un número entero"],
    [{ userId: 999999, name: "Z" }, 404, "No existe un usuario con id 999999"],
  ])("answers %j with %i", async (body, status, message) => {
    const response = await update(body);
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ success: false, message });
  });

  it("refuses bad values without writing anything", async () => {
    const user = await registerUser(app, { city: "Tunja" });
    const before = await tableCounts(app);
    for (const [body, message] of [
      [{ name: "" }, "El campo 'name' no puede estar vacío"],
      [{ phone: "12" }, "El campo 'phone' no es un teléfono válido (7 a 15 dígitos)"],
      [{ lat: 6.2 }, "El campo 'longitude' es obligatorio cuando se envía la otra coordenada"],
      [{ longitude: -200, latitude: 1 }, "El campo 'longitude' debe estar entre -180 y 180"],
      [{ name: "Nuevo", latitude: 100, longitude: 1 }, "El campo 'latitude' debe estar entre -90 y 90"],
    ] as const) {
      const response = await update({ userId: user.id, ...body });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ success: false, message });
    }
    expect(await tableCounts(app)).toEqual(before);
    const row = await app.db.user.findUniqueOrThrow({ where: { id: user.id }, include: { ubicaciones: true } });
    expect(row.nombre).toBe(user.nombre);
    expect(row.ubicaciones[0]?.ciudad).toBe("Tunja");
  });
});

describe("accounts over GraphQL", () => {
  it("looks users up and says whether one exists", async () => {
    const user = await registerUser(app);
    const { data } = await app.graphql(
      `query ($id: Int, $email: String!) {
        byId: user(userId: $id) { ... on Usuario { email } }
        exists: userExists(email: $email) { ... on QueryUserExistsSuccess { data } }
        missing: user(userId: 999999) { ... on Error { code } }
        both: user(userId: $id, email: $email) { ... on ValidationError { code message } }
      }`,
      { id: user.id, email: user.email },
      user.id,
    );
    expect(data).toEqual({
      byId: { email: user.email },
      exists: { data: true },
      missing: { code: "NOT_FOUND" },
      both: { code: "VALIDATION", message: "Envía exactamente uno de los campos 'userId' o 'email'" },
    });
  });

  it("updates the caller's own profile and needs to know who calls", async () => {
    const user = await registerUser(app);
    const UPDATE = `mutation ($input: UpdateProfileInput!) {
      updateProfile(input: $input) { __typename ... on Usuario { nombre location { ciudad } } ... on Error { code message } }
    }`;
    const anonymous = await app.graphql(UPDATE, { input: { nombre: "Nadie" } });
    expect(anonymous).toMatchObject(SIGN_IN_REQUIRED);
    const mine = await app.graphql(UPDATE, { input: { nombre: "Sofía", ciudad: "Manizales" } }, user.id);
    expect(mine.data.updateProfile).toEqual({ __typename: "Usuario", nombre: "Sofía", location: { ciudad: "Manizales" } });
  });

  it("shows a profile only to its owner and administrators", async () => {
    const user = await registerUser(app);
    const other = await registerUser(app);
    const admin = await newAdmin(app);
    const LOOKUP = `query ($id: Int) { user(userId: $id) { __typename ... on Usuario { email } ... on Error { code } } }`;
    expect((await app.graphql(LOOKUP, { id: user.id }, other.id)).data.user).toEqual({ __typename: "ForbiddenError", code: "FORBIDDEN" });
    expect(await app.graphql(LOOKUP, { id: user.id })).toMatchObject(SIGN_IN_REQUIRED);
    expect((await app.graphql(LOOKUP, { id: user.id }, admin.id)).data.user).toEqual({ __typename: "Usuario", email: user.email });
  });
});
