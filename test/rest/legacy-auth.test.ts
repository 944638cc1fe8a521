import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { newAdmin } from "../support/drivers.js";
import { PASSWORD, registerUser, uniqueEmail } from "../support/fixtures.js";
import { createDriver, ESTADIO, LLERAS } from "../support/trips.js";

const SESSION_NEEDED = "Esta llamada necesita la cabecera Authorization: Bearer <token>; obtén uno en /auth/login.php";

describe("LEGACY_AUTH=token", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ env: { LEGACY_AUTH: "token" } });
  });
  afterAll(() => app.close());

  it("answers 401 to a call without a token, and to a token that does not count", async () => {
    const user = await registerUser(app);
    const missing = await app.legacy("GET", "/auth/profile.php", { userId: String(user.id) });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ success: false, message: SESSION_NEEDED });
    const unknown = await app.legacy("GET", "/auth/profile.php", { userId: String(user.id) }, { authorization: "Bearer inventado" });
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toBe("La sesión no es válida o ya se cerró; inicia sesión de nuevo");
    const malformed = await app.legacy("GET", "/auth/profile.php", { userId: String(user.id) }, { authorization: "Token abc" });
    expect(malformed.body).toEqual({ success: false, message: "La cabecera Authorization debe tener la forma 'Bearer <token>'" });
  });

  it("keeps login, register, check_user and the map calls open, and login's token opens the rest", async () => {
    const email = uniqueEmail();
    const registered = await app.legacy("POST", "/auth/register.php", {
      email,
      password: PASSWORD,
      name: "A",
      lastName: "B",
      phone: "3001234567",
    });
    expect(registered.body.success).toBe(true);
    expect((await app.legacy("POST", "/auth/check_user.php", { email })).body).toMatchObject({ success: true, exists: true });
    expect((await app.legacy("GET", "/map/geocode.php", { address: "Medellín" })).status).toBe(200);
    expect((await app.legacy("POST", "/map/calculate_distance.php", { origin: LLERAS, destination: ESTADIO })).status).toBe(200);
    const login = await app.legacy("POST", "/auth/login.php", { email, password: PASSWORD });
    expect(login.status).toBe(200);
    const profile = await app.legacy("GET", "/auth/profile.php", { email }, { authorization: `Bearer ${login.body.token}` });
    expect(profile.status).toBe(200);
    expect(profile.body.user.email).toBe(email);
  });

  it("refuses (403) an id in the call that is not the token's user, naming the field", async () => {
    const [user, other] = [await registerUser(app), await registerUser(app)];
    const response = await app.legacy("POST", "/auth/profile_update.php", { userId: other.id, name: "Intruso" }, await app.bearer(user.id));
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, message: `El campo 'userId' (${other.id}) no corresponde al usuario de la sesión` });
    expect((await app.db.user.findUniqueOrThrow({ where: { id: other.id } })).nombre).not.toBe("Intruso");
  });

  it("lets an administrator's token make a call for the user it names", async () => {
    const admin = await newAdmin(app);
    const driver = await createDriver(app);
    const profile = await app.legacy("GET", "/conductor/get_profile.php", { conductor_id: String(driver.id) }, await app.bearer(admin.id));
    expect(profile.status).toBe(200);
    expect(profile.body.profile.conductor_id).toBe(driver.id);
  });

  it("acts for the token's user in calls that name nobody", async () => {
    const driver = await createDriver(app);
    const passenger = await registerUser(app);
    const trip = await app.legacy(
      "POST",
      "/viajes/create_trip.php",
      { usuario_id: passenger.id, tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO },
      await app.bearer(passenger.id),
    );
    const tripId = trip.body.trip.id;
    await app.legacy("POST", "/viajes/accept_trip.php", { trip_id: tripId, conductor_id: driver.id }, await app.bearer(driver.id));
    const cancelled = await app.legacy(
      "POST",
      "/viajes/cancel_trip.php",
      { trip_id: tripId, motivo: "Me demoré" },
      await app.bearer(passenger.id),
    );
    expect(cancelled.status).toBe(200);
    expect((await app.db.trip.findUniqueOrThrow({ where: { id: tripId } })).cancelado_por).toBe("pasajero");
  });
});

describe("LEGACY_AUTH=ids", () => {
  let app: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    const log = pino({ level: "warn" }, new Writable({ write: (chunk, _encoding, done) => done(void lines.push(String(chunk))) }));
    app = await createTestApp({ env: { NODE_ENV: "production" }, log });
  });
  afterAll(() => app.close());

  it("is the default, and says so with a warning when the service starts in production", () => {
    expect(app.config.LEGACY_AUTH).toBe("ids");
    const warning = lines.map((line) => JSON.parse(line)).find((entry) => /LEGACY_AUTH=ids/.test(entry.msg));
    expect(warning).toMatchObject({ level: 40 });
  });

  it("takes callers to be the ids they send", async () => {
    const user = await registerUser(app);
    expect((await app.legacy("POST", "/auth/profile_update.php", { userId: user.id, name: "Sofía" })).body.user.nombre).toBe("Sofía");
  });

  it("still checks a token when one is sent: a bad one is 401, a good one is who calls", async () => {
    const [user, other] = [await registerUser(app), await registerUser(app)];
    const stale = await app.legacy(
      "POST",
      "/auth/profile_update.php",
      { userId: user.id, name: "X" },
      { authorization: "Bearer caducado" },
    );
    expect(stale.status).toBe(401);
    const mismatch = await app.legacy("POST", "/auth/profile_update.php", { userId: other.id, name: "X" }, await app.bearer(user.id));
    expect(mismatch.status).toBe(403);
  });
});
