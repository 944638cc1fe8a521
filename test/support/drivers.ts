import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { TestApp } from "./app.js";
import { registerUser } from "./fixtures.js";

/** A driver account, signed up through the shim, with an empty profile. */
export async function newDriver(app: TestApp) {
  return (await registerUser(app, { tipo_usuario: "conductor" })) as { id: number; email: string };
}

const day = (from: Date, days: number) => new Date(from.getTime() + days * 24 * 3600 * 1000).toISOString().slice(0, 10);

/** Fills in everything an application needs, as the driver over GraphQL, with documents valid for a year. */
export async function completeApplication(app: TestApp, conductorId: number, vehicle: "moto" | "auto" | "mototaxi" = "auto") {
  const now = app.server.deps.clock.now();
  const plate = randomUUID().replace(/-/g, "").slice(0, 6).toUpperCase();
  const photo = (name: string) => `/uploads/conductores/${conductorId}/${name}.jpg`;
  const steps: Array<[string, string, Record<string, unknown>]> = [
    [
      "updateDriverProfile",
      "DriverProfileInput",
      { nombre_completo: "Carla Gómez", telefono: "3105551234", direccion: "Cra 70 # 44-10, Medellín" },
    ],
    [
      "updateVehicle",
      "VehicleInput",
      {
        marca: "Renault",
        modelo: "Logan",
        anio: 2020,
        placa: plate,
        color: "Blanco",
        tipo: vehicle,
        soat_numero: `SOAT-${plate}`,
        soat_vencimiento: day(now, 365),
        tecnomecanica_numero: `RTM-${plate}`,
        tecnomecanica_vencimiento: day(now, 300),
        tarjeta_propiedad_numero: `TP-${plate}`,
        foto_vehiculo: photo("vehiculo"),
        foto_tarjeta_propiedad: photo("tarjeta"),
        foto_soat: photo("soat"),
        foto_tecnomecanica: photo("rtm"),
      },
    ],
    [
      "updateLicense",
      "LicenseInput",
      {
        numero: `LIC-${plate}`,
        tipo: vehicle === "moto" ? "A2" : "B1",
        fecha_emision: day(now, -400),
        fecha_expiracion: day(now, 1500),
        imagen_frente: photo("licencia-frente"),
        imagen_reverso: photo("licencia-reverso"),
      },
    ],
  ];
  for (const [mutation, type, input] of steps) {
    const { data } = await app.graphql(
      `mutation ($input: ${type}!) { ${mutation}(input: $input) { __typename ... on Error { message } } }`,
      { input },
      conductorId,
    );
    expect(data[mutation], `${mutation}: ${JSON.stringify(data)}`).not.toHaveProperty("message");
  }
}

/** A driver who applied and is waiting for review. */
export async function submittedDriver(app: TestApp, vehicle: "moto" | "auto" | "mototaxi" = "auto") {
  const driver = await newDriver(app);
  await completeApplication(app, driver.id, vehicle);
  const { data } = await app.graphql(`mutation { submitForApproval { __typename ... on Error { message } } }`, {}, driver.id);
  expect(data.submitForApproval, JSON.stringify(data)).toEqual({ __typename: "ResultadoRevision" });
  return driver;
}

/** An administrator, created directly as ADMIN_EMAIL would. */
export async function newAdmin(app: TestApp) {
  return app.db.user.create({
    data: {
      email: `admin.${randomUUID().slice(0, 8)}@example.com`,
      nombre: "Ada",
      apellido: "Admin",
      telefono: "3000000000",
      password_hash: "unused",
      tipo_usuario: "admin",
      es_verificado: true,
    },
  });
}
