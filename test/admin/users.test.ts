import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, SIGN_IN_REQUIRED, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { PASSWORD, registerUser, uniqueEmail, post } from "../support/fixtures.js";
import { newAdmin } from "../support/drivers.js";
import { createDriver, createPassenger, tripIn } from "../support/trips.js";

// The deployed app's files named here (lib/src/…) are in https://github.com/Braian551/pingo/tree/35be6b2751ba54667ec1437fc46cd3a8ee79fd51.

let app: TestApp;
let admin: { id: number };
const clock = new FixedClock("2026-03-10T15:00:00Z");
beforeAll(async () => {
  app = await createTestApp({ clock });
  admin = await newAdmin(app);
});
afterAll(() => app.close());

const list = (query: Record<string, string>) => app.legacy("GET", "/admin/user_management.php", { admin_id: String(admin.id), ...query });
const put = (body: Record<string, unknown>) => app.legacy("PUT", "/admin/user_management.php", { admin_id: admin.id, ...body });
const remove = (body: Record<string, unknown>) => app.legacy("DELETE", "/admin/user_management.php", { admin_id: admin.id, ...body });
const login = (email: string) => post(app, "/auth/login.php", { email, password: PASSWORD });

describe("GET /admin/user_management.php", () => {
  // lib/src/global/services/admin/admin_service.dart
  it("also answers the page under data, each user with fecha_registro, as pingo's UsersManagementScreen reads it", async () => {
    await registerUser(app);
    const response = await list({ tipo_usuario: "cliente" });
    expect(response.status).toBe(200);
    expect(response.body.data.pagination).toEqual(response.body.pagination);
    expect(response.body.usuarios.length).toBeGreaterThan(0);
    for (const user of response.body.usuarios) {
      expect(user.tipo_usuario).toBe("pasajero");
      expect(user.fecha_registro).toBe(user.creado_en);
    }
    // Under data, in the app's words: its role names and 1/0 switches.
    expect(response.body.data.usuarios).toEqual(
      response.body.usuarios.map((user: Record<string, unknown>) => ({
        ...user,
        tipo_usuario: "cliente",
        es_activo: user.es_activo ? 1 : 0,
        es_verificado: user.es_verificado ? 1 : 0,
      })),
    );
  });

  it("pages through users with the pagination object", async () => {
    for (let i = 0; i < 5; i++) await registerUser(app, { name: "Paginado", lastName: `Número${i}` });
    const total = await app.db.user.count();
    const first = await list({ per_page: "2" });
    expect(first.status).toBe(200);
    expect(first.body.usuarios).toHaveLength(2);
    expect(first.body.pagination).toEqual({ page: 1, per_page: 2, total, total_pages: Math.ceil(total / 2) });
    const last = await list({ per_page: "2", page: String(Math.ceil(total / 2)) });
    expect(last.body.usuarios).toHaveLength(total % 2 || 2);
    const beyond = await list({ per_page: "2", page: "999" });
    expect(beyond.body.usuarios).toEqual([]);
    const defaults = await list({});
    expect(defaults.body.pagination).toMatchObject({ page: 1, per_page: 20 });
    expect(defaults.body.usuarios[0]).toMatchObject({ id: expect.any(Number), es_activo: true, es_verificado: expect.any(Boolean) });
  });

  it("searches name, e-mail and phone without regard to case, and filters by type and state", async () => {
    const marta = await registerUser(app, { name: "Marta", lastName: "Zuluaga", phone: "3209998877", email: uniqueEmail("busqueda") });
    const byName = await list({ search: "zULUAGA" });
    expect(byName.body.usuarios.map((u: { id: number }) => u.id)).toEqual([marta.id]);
    expect((await list({ search: "3209998877" })).body.usuarios.map((u: { id: number }) => u.id)).toEqual([marta.id]);
    expect((await list({ search: marta.email.slice(0, 12).toUpperCase() })).body.usuarios.map((u: { id: number }) => u.id)).toEqual([
      marta.id,
    ]);
    const driver = await registerUser(app, { tipo_usuario: "conductor", name: "Filtrado" });
    await app.db.user.update({ where: { id: driver.id }, data: { es_activo: false } });
    const drivers = await list({ tipo_usuario: "conductor", es_activo: "0" });
    expect(drivers.body.usuarios.map((u: { id: number }) => u.id)).toContain(driver.id);
    expect(
      drivers.body.usuarios.every((u: { tipo_usuario: string; es_activo: boolean }) => u.tipo_usuario === "conductor" && !u.es_activo),
    ).toBe(true);
    expect((await list({ es_activo: "1" })).body.usuarios.every((u: { es_activo: boolean }) => u.es_activo)).toBe(true);
  });

  it.each([
    [{ per_page: "101" }, 400, "El campo 'per_page' debe estar entre 1 y 100"],
    [{ per_page: "0" }, 400, "El campo 'per_page' debe estar entre 1 y 100"],
    [{ page: "0" }, 400, "El campo 'page' debe ser 1 o mayor"],
    [{ page: "dos" }, 400, "El campo 'page' debe ser un número entero"],
    [{ tipo_usuario: "jefe" }, 400, "El campo 'tipo_usuario' debe ser uno de: pasajero, conductor, admin, empresa"],
    [{ es_activo: "tal vez" }, 400, "El campo 'es_activo' debe ser 1 o 0"],
  ])("answers %j with %i", async (query, status, message) => {
    const response = await list(query);
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ success: false, message });
  });

  it("is for administrators only", async () => {
    const passenger = await registerUser(app);
    const response = await app.legacy("GET", "/admin/user_management.php", { admin_id: String(passenger.id) });
    expect(response.status).toBe(403);
    expect((await app.legacy("GET", "/admin/user_management.php", {})).status).toBe(400);
    expect((await app.legacy("GET", "/admin/user_management.php", { admin_id: "999999" })).status).toBe(403);
  });
});

describe("PUT /admin/user_management.php", () => {
  it("changes only the fields sent", async () => {
    const user = await registerUser(app);
    const response = await put({ user_id: user.id, telefono: "3011112222", es_verificado: 1 });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: "Usuario actualizado" });
    const row = await app.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row).toMatchObject({ telefono: "3011112222", es_verificado: true, nombre: user.nombre, es_activo: true });
  });

  it("deactivates (403 at login) and reactivates", async () => {
    const user = await registerUser(app);
    await put({ user_id: user.id, es_activo: 0 });
    expect((await login(user.email)).status).toBe(403);
    await put({ user_id: user.id, es_activo: "1" });
    expect((await login(user.email)).status).toBe(200);
  });

  it("gives a user turned driver a driver profile, and affiliates them with an existing company", async () => {
    const user = await registerUser(app);
    const company = await app.db.company.create({ data: { nombre: "Motos del Valle", nit: "901000111-1" } });
    expect((await put({ user_id: user.id, tipo_usuario: "conductor", empresa_id: company.id })).status).toBe(200);
    expect(await app.db.driverProfile.findUnique({ where: { conductor_id: user.id } })).not.toBeNull();
    expect((await app.legacy("GET", "/auth/profile.php", { userId: String(user.id) })).body.user).toMatchObject({
      tipo_usuario: "conductor",
      empresa_id: company.id,
    });
    expect((await put({ user_id: user.id, empresa_id: 777777 })).status).toBe(404);
  });

  it.each([
    [{ user_id: undefined }, 400, "El campo 'user_id' es obligatorio"],
    [{ user_id: 999999, nombre: "X" }, 404, "No existe un usuario con id 999999"],
    [{ nombre: "" }, 400, "El campo 'nombre' no puede estar vacío"],
    [{ tipo_usuario: "dios" }, 400, "El campo 'tipo_usuario' debe ser uno de: pasajero, conductor, admin, empresa"],
    [{ es_activo: 2 }, 400, "El campo 'es_activo' debe ser 1 o 0"],
  ])("answers %j with %i", async (body, status, message) => {
    const user = await registerUser(app);
    const response = await put({ user_id: user.id, ...body });
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ success: false, message });
  });

  it("will not let an administrator lock themselves out", async () => {
    const response = await put({ user_id: admin.id, es_activo: 0 });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe("No puedes desactivar ni cambiar el tipo de tu propia cuenta");
  });
});

describe("DELETE /admin/user_management.php", () => {
  it("erases the person but keeps their id in the trip history the driver app reads (trip_history_screen needs usuario_id)", async () => {
    const { trip, passenger, driver } = await tripIn(app, "completado");
    const response = await remove({ user_id: passenger.id });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: "Usuario eliminado" });
    expect((await login(passenger.email)).status).toBe(404);
    expect((await app.legacy("GET", "/auth/profile.php", { userId: String(passenger.id) })).status).toBe(404);
    const kept = await app.legacy("GET", "/viajes/get_trip.php", { trip_id: String(trip.id) });
    expect(kept.body.trip).toMatchObject({ id: trip.id, usuario_id: passenger.id, conductor_id: driver.id, estado: "completado" });
    const history = await app.legacy("GET", "/viajes/get_conductor_history.php", { conductor_id: String(driver.id) });
    expect(history.body.trips.find((t: { id: number }) => t.id === trip.id)).toMatchObject({ usuario_id: passenger.id });
    const row = await app.db.user.findUniqueOrThrow({ where: { id: passenger.id } });
    expect(row).toMatchObject({ nombre: "Usuario", apellido: "eliminado", telefono: "", es_activo: false });
    expect(row.email).not.toBe(passenger.email);
    expect(row.eliminado_en).not.toBeNull();
    expect(await app.db.userLocation.count({ where: { usuario_id: passenger.id } })).toBe(0);
    const listed = await app.legacy("GET", "/admin/user_management.php", { admin_id: String(admin.id), per_page: "100" });
    expect(listed.body.usuarios.map((u: { id: number }) => u.id)).not.toContain(passenger.id);
    // The e-mail is free again.
    const again = await app.legacy("POST", "/auth/register.php", {
      email: passenger.email,
      password: "Clave-Segura-9",
      name: "Otra",
      lastName: "Persona",
      phone: "3001234567",
    });
    expect(again.status).toBe(200);
  });

  it("erases a driver's profile, vehicle and photos; the passenger's trip keeps the driver's id", async () => {
    const { trip, driver } = await tripIn(app, "completado");
    const { uploads } = app.server.deps;
    const photo = uploads.link(await uploads.save(`conductores/${driver.id}/vehiculo.png`, new Uint8Array([1, 2, 3])));
    const open = () => app.server.fetch(new Request(`http://test${photo}`));
    expect((await open()).status).toBe(200);
    expect((await remove({ user_id: driver.id })).status).toBe(200);
    expect(await app.db.driverProfile.count({ where: { conductor_id: driver.id } })).toBe(0);
    expect(await app.db.vehicle.count({ where: { conductor_id: driver.id } })).toBe(0);
    expect((await app.db.trip.findUniqueOrThrow({ where: { id: trip.id } })).conductor_id).toBe(driver.id);
    expect((await open()).status).toBe(404);
  });

  it("refuses to delete someone in the middle of a trip, and changes nothing", async () => {
    const { passenger } = await tripIn(app, "en_curso");
    const refused = await remove({ user_id: passenger.id });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/activo; termínalo o cancélalo/);
    expect((await app.db.user.findUniqueOrThrow({ where: { id: passenger.id } })).eliminado_en).toBeNull();
  });

  it("refuses unknown users, the administrator themselves, and non-administrators", async () => {
    expect((await remove({ user_id: 999999 })).status).toBe(404);
    expect((await remove({ user_id: admin.id })).body.message).toBe("No puedes eliminar tu propia cuenta");
    const passenger = await createPassenger(app);
    const other = await createPassenger(app);
    const refused = await app.legacy("DELETE", "/admin/user_management.php", { admin_id: passenger.id, user_id: other.id });
    expect(refused.status).toBe(403);
    expect(await app.db.user.count({ where: { id: other.id } })).toBe(1);
  });
});

describe("suspending and activating", () => {
  it("suspends with a reason (403 at login, driver offline, user told) and activates again", async () => {
    const driver = await createDriver(app);
    const missing = await post(app, "/admin/suspender_usuario.php", { user_id: driver.id });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe("El campo 'motivo' es obligatorio");
    const response = await post(app, "/admin/suspender_usuario.php", { user_id: driver.id, motivo: "Documentos falsos" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: "Usuario suspendido" });
    const refused = await login(driver.email);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("La cuenta está suspendida: Documentos falsos");
    expect((await app.db.driverStatus.findUniqueOrThrow({ where: { conductor_id: driver.id } })).disponible).toBe(false);
    expect(await app.db.notification.count({ where: { usuario_id: driver.id, tipo: "cuenta_suspendida" } })).toBe(1);

    const activated = await post(app, "/admin/activar_usuario.php", { user_id: driver.id });
    expect(activated.body).toEqual({ success: true, message: "Usuario activado" });
    expect((await login(driver.email)).status).toBe(200);
  });

  it("answers 404 for unknown users and 403 when a non-administrator is named", async () => {
    expect((await post(app, "/admin/suspender_usuario.php", { user_id: 999999, motivo: "x" })).status).toBe(404);
    expect((await post(app, "/admin/activar_usuario.php", { user_id: 999999 })).status).toBe(404);
    const passenger = await createPassenger(app);
    const target = await createPassenger(app);
    expect((await post(app, "/admin/suspender_usuario.php", { user_id: target.id, motivo: "x", admin_id: passenger.id })).status).toBe(403);
    expect((await post(app, "/admin/activar_usuario.php", { user_id: target.id, admin_id: passenger.id })).status).toBe(403);
  });
});

describe("administration over GraphQL", () => {
  it("sorts users by id, name, e-mail, sign-up date or type, in either order", async () => {
    const signUp = async (creado_en: string, fields: Record<string, unknown>) => {
      const { id } = await registerUser(app, { lastName: "Ordenable", ...fields });
      await app.db.user.update({ where: { id }, data: { creado_en: new Date(creado_en) } });
      return id as number;
    };
    const bruno = await signUp("2026-03-12T15:00:00Z", { name: "Bruno", email: uniqueEmail("c-orden") });
    const ana = await signUp("2026-03-11T15:00:00Z", { name: "Ana", email: uniqueEmail("b-orden"), tipo_usuario: "conductor" });
    const carla = await signUp("2026-03-13T15:00:00Z", { name: "Carla", email: uniqueEmail("a-orden") });
    const sorted = async (sort?: string, order?: string) => {
      const { data } = await app.graphql(
        `query ($sort: OrdenUsuarios, $order: Orden) {
          users(search: "Ordenable", sort: $sort, order: $order) { ... on PaginaUsuarios { items { id } } }
        }`,
        { sort, order },
        admin.id,
      );
      return data.users.items.map((user: { id: number }) => user.id);
    };
    expect(await sorted(), "by id by default").toEqual([bruno, ana, carla]);
    expect(await sorted("id", "desc")).toEqual([carla, ana, bruno]);
    expect(await sorted("nombre")).toEqual([ana, bruno, carla]);
    expect(await sorted("nombre", "desc")).toEqual([carla, bruno, ana]);
    expect(await sorted("email")).toEqual([carla, ana, bruno]);
    expect(await sorted("fecha_registro")).toEqual([ana, bruno, carla]);
    expect(await sorted("fecha_registro", "desc")).toEqual([carla, bruno, ana]);
    expect(await sorted("tipo_usuario"), "conductor before pasajero, then by id").toEqual([ana, bruno, carla]);
  });

  it("lists, updates and suspends as an identified administrator", async () => {
    const user = await registerUser(app, { name: "Graficado" });
    const { data } = await app.graphql(
      `query { users(search: "Graficado") { ... on PaginaUsuarios { items { id nombre } pagination { total } } } }`,
      {},
      admin.id,
    );
    expect(data.users).toEqual({ items: [{ id: user.id, nombre: "Graficado" }], pagination: { total: 1 } });
    const suspended = await app.graphql(`mutation ($id: Int!) { suspendUser(user_id: $id, motivo: "Spam") { __typename } }`, {
      id: user.id,
    });
    expect(suspended).toMatchObject(SIGN_IN_REQUIRED);
  });
});
