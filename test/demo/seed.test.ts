import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ADMIN, DEMO_COMPANY, DEMO_DRIVERS, DEMO_PASSENGERS, DEMO_PASSWORDS } from "../../src/demo/demo-data.js";
import { seedDemoData } from "../../src/demo/seed.js";
import { createTestApp, type TestApp } from "../support/app.js";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const snapshot = async () => ({
  users: await app.db.user.count(),
  locations: await app.db.userLocation.count(),
  profiles: await app.db.driverProfile.count(),
  licenses: await app.db.license.count(),
  vehicles: await app.db.vehicle.count(),
  periods: await app.db.onlinePeriod.count(),
  photos: await app.db.documentPhoto.count(),
});

describe("demo data", () => {
  it("creates the same records however many times it runs", async () => {
    await seedDemoData(app.server.deps);
    const first = await snapshot();
    expect(first.users).toBe(2 + DEMO_PASSENGERS.length + DEMO_DRIVERS.length);
    await seedDemoData(app.server.deps);
    expect(await snapshot()).toEqual(first);
  });

  it("has approved, online drivers with complete vehicles of every type around Medellín", async () => {
    const drivers = await app.db.user.findMany({
      where: { tipo_usuario: "conductor" },
      include: { perfil_conductor: { include: { licencia: true, vehiculo: true, estado: true } } },
    });
    expect(new Set(drivers.map((d) => d.perfil_conductor?.vehiculo?.tipo))).toEqual(new Set(["moto", "auto", "mototaxi"]));
    for (const driver of drivers) {
      const profile = driver.perfil_conductor!;
      expect(profile).toMatchObject({ aprobado: true, estado_revision: "aprobado" });
      expect(profile.estado).toMatchObject({ disponible: true });
      expect(Math.abs(profile.estado!.latitud! - 6.25)).toBeLessThan(0.1);
      expect(Math.abs(profile.estado!.longitud! + 75.57)).toBeLessThan(0.1);
      const vehicle = profile.vehiculo!;
      for (const value of Object.values(vehicle)) expect(value).not.toBeNull();
      expect(vehicle.soat_vencimiento!.getTime()).toBeGreaterThan(Date.now());
      expect(profile.licencia!.fecha_expiracion!.getTime()).toBeGreaterThan(Date.now());
      // The photos are the driver's own: they open with the driver's token, not for anyone.
      expect(vehicle.foto_soat).toMatch(new RegExp(`^/uploads/conductores/${driver.id}/`));
      expect((await app.server.fetch(new Request(`http://test${vehicle.foto_soat}`))).status).toBe(401);
      const photo = await app.server.fetch(new Request(`http://test${vehicle.foto_soat}`, { headers: await app.bearer(driver.id) }));
      expect(photo.status).toBe(200);
      expect(photo.headers.get("content-type")).toBe("image/png");
      // Each of the six document photos starts its document's history.
      const history = await app.db.documentPhoto.findMany({ where: { conductor_id: driver.id } });
      expect(history.map((entry) => entry.tipo_documento).sort()).toEqual(
        ["licencia_frente", "licencia_reverso", "soat", "tarjeta_propiedad", "tecnomecanica", "vehiculo"].sort(),
      );
      expect(history.every((entry) => entry.reemplazado_en === null)).toBe(true);
    }
  });

  it("has an operating company with a share, its manager, and the car drivers", async () => {
    const company = await app.db.company.findUniqueOrThrow({ where: { nit: DEMO_COMPANY.empresa.nit }, include: { usuarios: true } });
    expect(company).toMatchObject({ estado: "activa", porcentaje_comision: DEMO_COMPANY.porcentaje });
    expect(company.usuarios.map((user) => user.email).sort()).toEqual([...DEMO_COMPANY.conductores, DEMO_COMPANY.gestor.email].sort());
  });

  it("has working credentials for every kind of account", async () => {
    const accounts = [
      [DEMO_ADMIN.email, DEMO_PASSWORDS.admin, "admin"],
      [DEMO_PASSENGERS[0]!.email, DEMO_PASSWORDS.passenger, "pasajero"],
      [DEMO_DRIVERS[0]!.email, DEMO_PASSWORDS.driver, "conductor"],
      [DEMO_COMPANY.gestor.email, DEMO_PASSWORDS.manager, "empresa"],
    ];
    for (const [email, password, tipo] of accounts) {
      const response = await app.legacy("POST", "/auth/login.php", { email, password });
      expect(response.status).toBe(200);
      expect(response.body.user.tipo_usuario).toBe(tipo);
    }
  });
});
