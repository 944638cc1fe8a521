import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { TestApp } from "./app.js";
import { post, registerUser } from "./fixtures.js";


/** A driver account, signed up through the shim, with an empty profile. */
export async function newDriver(app: TestApp) {
  return (await registerUser(app, { tipo_usuario: "conductor" })) as { id: number; email: string };
}

const day = (from: Date, days: number) => new Date(from.getTime() + days * 24 * 3600 * 1000).toISOString().slice(0, 10);

/** Fills in everything an application needs, through the driver calls, with documents valid for a year. */
export async function completeApplication(app: TestApp, conductorId: number, vehicle: "moto" | "auto" | "mototaxi" = "auto") {
  const now = app.server.deps.clock.now();
  const plate = randomUUID().replace(/-/g, "").slice(0, 6).toUpperCase();
  const photo = (name: string) => `/uploads/conductores/${conductorId}/${name}.jpg`;
  const calls: Array<[string, Record<string, unknown>]> = [
    ["/conductor/update_profile.php", { nombre_completo: "Carla Gómez", telefono: "3105551234", direccion: "Cra 70 # 44-10, Medellín" }],
    ["/conductor/update_vehicle.php", {
      vehiculo_marca: "Renault", vehiculo_modelo: "Logan", vehiculo_anio: 2020, vehiculo_placa: plate, vehiculo_color: "Blanco",
      vehiculo_tipo: vehicle, soat_numero: `SOAT-${plate}`, soat_vencimiento: day(now, 365),
      tecnomecanica_numero: `RTM-${plate}`, tecnomecanica_vencimiento: day(now, 300), tarjeta_propiedad_numero: `TP-${plate}`,
      foto_vehiculo: photo("vehiculo"), foto_tarjeta_propiedad: photo("tarjeta"), foto_soat: photo("soat"), foto_tecnomecanica: photo("rtm"),
    }],
    ["/conductor/update_license.php", {
      numero: `LIC-${plate}`, tipo: vehicle === "moto" ? "A2" : "B1", fecha_emision: day(now, -400), fecha_expiracion: day(now, 1500),
      imagen_frente: photo("licencia-frente"), imagen_reverso: photo("licencia-reverso"),
    }],
  ];
  for (const [path, body] of calls) {
    const response = await post(app, path, { conductor_id: conductorId, ...body });
    expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(200);
  }
}

/** A driver who applied and is waiting for review. */
export async function submittedDriver(app: TestApp, vehicle: "moto" | "auto" | "mototaxi" = "auto") {
  const driver = await newDriver(app);
  await completeApplication(app, driver.id, vehicle);
  const response = await post(app, "/conductor/submit_for_approval.php", { conductor_id: driver.id });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return driver;
}

/** An administrator, created directly as ADMIN_EMAIL would. */
export async function newAdmin(app: TestApp) {
  return app.db.user.create({
    data: {
      email: `admin.${randomUUID().slice(0, 8)}@example.com`, nombre: "Ada", apellido: "Admin", telefono: "3000000000",
      password_hash: "unused", tipo_usuario: "admin", es_verificado: true,
    },
  });
}
