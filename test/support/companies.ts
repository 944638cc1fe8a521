import { randomInt } from "node:crypto";
import { expect } from "vitest";
import type { TestApp } from "./app.js";
import { PASSWORD, uniqueEmail } from "./fixtures.js";
import { createDriver, type DriverOptions, ESTADIO, LLERAS } from "./trips.js";

/** A NIT nobody has used in this database yet. */
export const freshNit = () => `9${String(randomInt(10_000_000, 99_999_999))}-${randomInt(0, 10)}`;

/** A company signed up through register.php, as its first manager: it waits for review. */
export async function signUpCompany(app: TestApp, nombre = "Flota Antioquia") {
  const email = uniqueEmail("gestor");
  const response = await app.legacy("POST", "/auth/register.php", {
    email,
    password: PASSWORD,
    name: "Gloria",
    lastName: "Gestora",
    phone: "3004445566",
    tipo_usuario: "empresa",
    empresa_nombre: nombre,
    empresa_nit: freshNit(),
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return {
    manager: response.body.user as { id: number; email: string; empresa_id: number },
    company: response.body.empresa as { id: number; nombre: string; nit: string; estado: string },
  };
}

/** A company that signed up and an administrator approved. */
export async function activeCompany(app: TestApp, adminId: number, nombre?: string) {
  const signedUp = await signUpCompany(app, nombre);
  const approved = await app.graphql(
    `mutation ($id: Int!) { approveCompany(id: $id) { __typename ... on Empresa { estado } } }`,
    { id: signedUp.company.id },
    adminId,
  );
  expect(approved.data.approveCompany).toEqual({ __typename: "Empresa", estado: "activa" });
  return signedUp;
}

/** One GraphQL root field's result, asserting the call itself did not fail. */
export async function field<T = any>(app: TestApp, query: string, variables: Record<string, unknown>, as?: number): Promise<T> {
  const response = await app.graphql(query, variables, as);
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  return Object.values(response.data as Record<string, T>)[0]!;
}

/** The newest mail the outbox holds for an address. */
export const lastMailTo = (app: TestApp, address: string) =>
  app.db.outboxMail.findFirst({ where: { destinatario: address }, orderBy: { id: "desc" } });

/** A driver of the company: signed up, approved and online by default (createDriver), then affiliated as an administrator would. */
export async function fleetDriver(app: TestApp, empresaId: number, options: DriverOptions = {}) {
  const driver = await createDriver(app, options);
  await app.db.user.update({ where: { id: driver.id }, data: { empresa_id: empresaId } });
  return driver;
}

/** A trip written straight into the database, between the Parque Lleras and the stadium, with `fields` on top. */
export const tripRow = (app: TestApp, fields: Record<string, unknown>) =>
  app.db.trip.create({
    data: {
      tipo_servicio: "auto",
      origen_direccion: LLERAS.direccion,
      origen_latitud: LLERAS.latitud,
      origen_longitud: LLERAS.longitud,
      destino_direccion: ESTADIO.direccion,
      destino_latitud: ESTADIO.latitud,
      destino_longitud: ESTADIO.longitud,
      precio_estimado: 15_000,
      distancia_km: 6,
      duracion_estimada_minutos: 18,
      ...fields,
    } as never,
  });
