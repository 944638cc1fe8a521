import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { registerUser, post } from "../support/fixtures.js";
import { completeApplication, newAdmin, newDriver } from "../support/drivers.js";

// The deployed app's files named here (lib/src/…) are in https://github.com/Braian551/pingo/tree/35be6b2751ba54667ec1437fc46cd3a8ee79fd51.

let app: TestApp;
const clock = new FixedClock("2026-03-10T15:00:00Z");
beforeAll(async () => {
  app = await createTestApp({ clock });
});
afterAll(() => app.close());

describe("GET /conductor/get_profile.php", () => {
  it("returns the profile of spec 2.5 with licencia and vehiculo", async () => {
    const driver = await newDriver(app);
    const empty = await app.legacy("GET", "/conductor/get_profile.php", { conductor_id: String(driver.id) });
    expect(empty.status).toBe(200);
    expect(empty.body.profile).toMatchObject({
      conductor_id: driver.id,
      nombre_completo: "Ana Restrepo",
      telefono: "3001234567",
      direccion: null,
      aprobado: false,
      motivo_rechazo: null,
      fecha_aprobacion: null,
      licencia: null,
      vehiculo: null,
    });
    expect(Object.keys(empty.body.profile).sort()).toEqual([
      "aprobado",
      "conductor_id",
      "direccion",
      "documentos_pendientes",
      "documentos_rechazados",
      "documentos_vencidos",
      "estado_verificacion",
      "fecha_actualizacion",
      "fecha_aprobacion",
      "fecha_creacion",
      "id",
      "licencia",
      "motivo_rechazo",
      "nombre_completo",
      "porcentaje_completitud",
      "telefono",
      "vehiculo",
    ]);
    // What pingo's profile screen reads to list what is missing (lib/src/features/conductor/models/conductor_profile_model.dart).
    expect(empty.body.profile.documentos_pendientes).toEqual(
      expect.arrayContaining(["perfil.direccion", "licencia.numero", "vehiculo.placa"]),
    );
    expect(empty.body.profile.porcentaje_completitud).toBeLessThan(100);
    await completeApplication(app, driver.id);
    const full = (await app.legacy("GET", "/conductor/get_profile.php", { conductor_id: String(driver.id) })).body.profile;
    expect(full).toMatchObject({
      documentos_pendientes: [],
      documentos_rechazados: [],
      documentos_vencidos: [],
      porcentaje_completitud: 100,
    });
    expect(full.licencia).toMatchObject({ tipo: "B1", numero: expect.stringMatching(/^LIC-/) });
    expect(full.vehiculo).toMatchObject({ marca: "Renault", tipo: "auto", anio: 2020, empresa_id: null });
  });

  it.each([
    [{}, 400, "El campo 'conductor_id' es obligatorio"],
    [{ conductor_id: "x" }, 400, "El campo 'conductor_id' debe ser un número entero"],
    [{ conductor_id: "999999" }, 404, "No existe un conductor con id 999999"],
  ])("answers %j with %i", async (query, status, message) => {
    const response = await app.legacy("GET", "/conductor/get_profile.php", query);
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ success: false, message });
  });

  it("is not a passenger's", async () => {
    const passenger = await registerUser(app);
    expect((await app.legacy("GET", "/conductor/get_profile.php", { conductor_id: String(passenger.id) })).status).toBe(404);
  });

  it("lets administrators, and only them, read another driver's profile over GraphQL", async () => {
    const driver = await newDriver(app);
    const other = await newDriver(app);
    const admin = await newAdmin(app);
    const PROFILE = `query ($id: Int) { driverProfile(conductor_id: $id) { __typename ... on PerfilConductor { conductor_id email } } }`;
    expect((await app.graphql(PROFILE, { id: driver.id }, admin.id)).data.driverProfile).toEqual({
      __typename: "PerfilConductor",
      conductor_id: driver.id,
      email: driver.email,
    });
    expect((await app.graphql(PROFILE, { id: driver.id }, other.id)).data.driverProfile.__typename).toBe("ForbiddenError");
    expect((await app.graphql(PROFILE, {}, other.id)).data.driverProfile.conductor_id).toBe(other.id);
  });
});

describe("POST /conductor/update_profile.php", () => {
  it("changes only the fields sent", async () => {
    const driver = await newDriver(app);
    const response = await post(app, "/conductor/update_profile.php", { conductor_id: driver.id, direccion: "Calle 50 # 40-20" });
    expect(response.status).toBe(200);
    expect(response.body.message).toBe("Perfil actualizado");
    expect(response.body.profile).toMatchObject({ nombre_completo: "Ana Restrepo", telefono: "3001234567", direccion: "Calle 50 # 40-20" });
    const again = await post(app, "/conductor/update_profile.php", { conductor_id: driver.id, nombre_completo: "Ana R." });
    expect(again.body.profile).toMatchObject({ nombre_completo: "Ana R.", direccion: "Calle 50 # 40-20" });
  });

  it.each([
    [{ telefono: "12" }, "El campo 'telefono' no es un teléfono válido (7 a 15 dígitos)"],
    [{ nombre_completo: " " }, "El campo 'nombre_completo' no puede estar vacío"],
  ])("refuses %j", async (body, message) => {
    const driver = await newDriver(app);
    const response = await post(app, "/conductor/update_profile.php", { conductor_id: driver.id, ...body });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(message);
  });
});

describe("POST /conductor/update_vehicle.php", () => {
  const update = (conductor_id: number, body: Record<string, unknown>) =>
    post(app, "/conductor/update_vehicle.php", { conductor_id, ...body });

  it("takes the vehiculo_ fields, answers without the prefix and normalises the plate", async () => {
    const driver = await newDriver(app);
    const response = await update(driver.id, {
      vehiculo_marca: "Chevrolet",
      vehiculo_modelo: "Spark",
      vehiculo_anio: 2019,
      vehiculo_placa: " xyz-12a ",
      vehiculo_color: "Rojo",
      vehiculo_tipo: "auto",
      soat_numero: "S-1",
      soat_vencimiento: "2027-01-31",
      tecnomecanica_vencimiento: "2026-12-01T10:00:00-05:00",
    });
    expect(response.status).toBe(200);
    expect(response.body.message).toBe("Vehículo actualizado");
    expect(response.body.vehicle).toMatchObject({
      marca: "Chevrolet",
      modelo: "Spark",
      anio: 2019,
      placa: "XYZ12A",
      color: "Rojo",
      tipo: "auto",
      soat_numero: "S-1",
      // A bare date is valid through that whole day in Bogotá.
      soat_vencimiento: "2027-02-01T04:59:59.999Z",
      tecnomecanica_vencimiento: "2026-12-01T15:00:00.000Z",
    });
    expect(Object.keys(response.body.vehicle).some((k) => k.startsWith("vehiculo_"))).toBe(false);
    const partial = await update(driver.id, { vehiculo_color: "Negro" });
    expect(partial.body.vehicle).toMatchObject({ color: "Negro", marca: "Chevrolet", placa: "XYZ12A" });
  });

  it("keeps plates unique (409)", async () => {
    const first = await newDriver(app);
    const second = await newDriver(app);
    await update(first.id, { vehiculo_placa: "QWE123" });
    const taken = await update(second.id, { vehiculo_placa: "qwe-123" });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe("La placa QWE123 ya está registrada en otro vehículo");
    expect((await update(first.id, { vehiculo_placa: "QWE123" })).status).toBe(200);
  });

  it.each([
    [{ vehiculo_anio: 1950 }, "El campo 'vehiculo_anio' debe ser un año entre 1970 y el próximo año"],
    [{ vehiculo_anio: 2028 }, "El campo 'vehiculo_anio' debe ser un año entre 1970 y el próximo año"],
    [{ vehiculo_anio: "dos mil" }, "El campo 'vehiculo_anio' debe ser un número entero"],
    [{ vehiculo_tipo: "camion" }, "El campo 'vehiculo_tipo' debe ser uno de: moto, auto, mototaxi"],
    [{ vehiculo_placa: "A-1" }, "El campo 'vehiculo_placa' no es una placa válida (5 a 7 letras y números)"],
    [{ soat_vencimiento: "31/12/2027" }, "El campo 'soat_vencimiento' debe ser una fecha ISO 8601 válida (AAAA-MM-DD)"],
    [{ tecnomecanica_vencimiento: "2027-02-30" }, "El campo 'tecnomecanica_vencimiento' debe ser una fecha ISO 8601 válida (AAAA-MM-DD)"],
  ])("refuses %j with 400 and writes nothing", async (body, message) => {
    const driver = await newDriver(app);
    const response = await update(driver.id, { vehiculo_marca: "Mazda", ...body });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(message);
    expect(await app.db.vehicle.findUnique({ where: { conductor_id: driver.id } })).toBeNull();
  });

  it("accepts next year's models", async () => {
    const driver = await newDriver(app);
    expect((await update(driver.id, { vehiculo_anio: 2027 })).status).toBe(200);
  });

  it("asks an existing, active company to take the driver in: empresa_id changes only when it accepts", async () => {
    const driver = await newDriver(app);
    const missing = await update(driver.id, { empresa_id: 424242 });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe("El campo 'empresa_id' no corresponde a ninguna empresa activa (424242)");
    const company = await app.db.company.create({ data: { nombre: "Flota Sur", nit: "900111222-3" } });
    const response = await update(driver.id, { empresa_id: company.id });
    expect(response.body.message).toBe(
      "Vehículo actualizado. Tu solicitud a Flota Sur está pendiente: tu empresa cambiará cuando la acepte",
    );
    expect(response.body.vehicle.empresa_id).toBeNull();
    expect((await app.db.user.findUniqueOrThrow({ where: { id: driver.id } })).empresa_id).toBeNull();
    expect(
      await app.db.companyAffiliation.count({ where: { conductor_id: driver.id, empresa_id: company.id, estado: "solicitada" } }),
    ).toBe(1);
  });

  it("refuses a vehicle type the driver's licence does not allow", async () => {
    const driver = await newDriver(app);
    await post(app, "/conductor/update_license.php", { conductor_id: driver.id, tipo: "A2" });
    const response = await update(driver.id, { vehiculo_tipo: "auto" });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(
      "El campo 'vehiculo_tipo' no es compatible con tu licencia A2; para 'auto' se necesita una de: B1, B2, B3, C1, C2, C3",
    );
  });
});

describe("POST /conductor/update_license.php", () => {
  const update = (conductor_id: number, body: Record<string, unknown>) =>
    post(app, "/conductor/update_license.php", { conductor_id, ...body });

  it("stores the licence, changing only the fields sent", async () => {
    const driver = await newDriver(app);
    const response = await update(driver.id, { numero: "co-123", tipo: "b1", fecha_emision: "2024-01-15", fecha_expiracion: "2030-01-15" });
    expect(response.status).toBe(200);
    expect(response.body.message).toBe("Licencia actualizada");
    expect(response.body.license).toEqual({
      numero: "CO-123",
      tipo: "B1",
      fecha_emision: "2024-01-15T05:00:00.000Z",
      fecha_expiracion: "2030-01-16T04:59:59.999Z",
      imagen_frente: null,
      imagen_reverso: null,
    });
    const photo = `/uploads/conductores/${driver.id}/licencia_frente-1.jpg`;
    const partial = await update(driver.id, { imagen_frente: photo });
    expect(partial.body.license).toMatchObject({
      numero: "CO-123",
      imagen_frente: expect.stringMatching(new RegExp(`^${photo}\\?expira=\\d+&firma=`)),
    });
    // What is kept is the plain link, whatever signed or absolute form was sent.
    await update(driver.id, { imagen_reverso: `https://api.example.co${partial.body.license.imagen_frente}` });
    expect(await app.db.license.findUnique({ where: { conductor_id: driver.id } })).toMatchObject({
      imagen_frente: photo,
      imagen_reverso: photo,
    });
  });

  it("refuses a photo link to another driver's upload", async () => {
    const driver = await newDriver(app);
    const other = await newDriver(app);
    const response = await update(driver.id, { imagen_frente: `/uploads/conductores/${other.id}/licencia_frente-1.jpg` });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe("El campo 'imagen_frente' debe ser un documento que subiste tú");
    const vehicle = await post(app, "/conductor/update_vehicle.php", {
      conductor_id: driver.id,
      foto_soat: `/uploads/conductores/${other.id}/soat-1.jpg`,
    });
    expect(vehicle.status).toBe(400);
    expect(vehicle.body.message).toBe("El campo 'foto_soat' debe ser un documento que subiste tú");
  });

  it("keeps licence numbers unique (409)", async () => {
    const first = await newDriver(app);
    const second = await newDriver(app);
    await update(first.id, { numero: "UNICA-1" });
    const taken = await update(second.id, { numero: "unica-1" });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe("La licencia número UNICA-1 ya está registrada por otro conductor");
  });

  it("checks the category against the vehicle type", async () => {
    const driver = await newDriver(app);
    await post(app, "/conductor/update_vehicle.php", { conductor_id: driver.id, vehiculo_tipo: "mototaxi" });
    const wrong = await update(driver.id, { tipo: "B2" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe("El campo 'tipo' no permite conducir 'mototaxi'; se necesita una de: B1, C1");
    expect((await update(driver.id, { tipo: "C1" })).status).toBe(200);
  });

  it.each([
    [{ tipo: "Z9" }, "El campo 'tipo' debe ser una categoría de licencia: A1, A2, B1, B2, B3, C1, C2, C3"],
    [{ fecha_emision: "2025-01-01", fecha_expiracion: "2024-01-01" }, "El campo 'fecha_expiracion' debe estar en el futuro"],
    [{ fecha_emision: "2031-01-01", fecha_expiracion: "2030-01-01" }, "El campo 'fecha_emision' no puede estar en el futuro"],
    [{ fecha_emision: "2026-03-01", fecha_expiracion: "2026-03-09" }, "El campo 'fecha_expiracion' debe estar en el futuro"],
    [{ fecha_emision: "ayer" }, "El campo 'fecha_emision' debe ser una fecha ISO 8601 válida (AAAA-MM-DD)"],
  ])("refuses %j", async (body, message) => {
    const driver = await newDriver(app);
    const response = await update(driver.id, body);
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(message);
    expect(await app.db.license.findUnique({ where: { conductor_id: driver.id } })).toBeNull();
  });

  it("checks the order of the dates against the stored ones", async () => {
    const driver = await newDriver(app);
    await update(driver.id, { fecha_emision: "2025-06-01", fecha_expiracion: "2030-06-01" });
    const later = await update(driver.id, { fecha_emision: "2031-01-01" });
    expect(later.body.message).toBe("El campo 'fecha_emision' no puede estar en el futuro");
    await app.db.license.update({ where: { conductor_id: driver.id }, data: { fecha_emision: new Date("2026-03-01T00:00:00Z") } });
    const before = await update(driver.id, { fecha_expiracion: "2026-12-01T00:00:00Z" });
    expect(before.status).toBe(200);
    await app.db.license.update({ where: { conductor_id: driver.id }, data: { fecha_emision: new Date("2026-12-15T00:00:00Z") } });
    const inverted = await update(driver.id, { fecha_expiracion: "2026-12-10" });
    expect(inverted.body.message).toBe("El campo 'fecha_expiracion' debe ser posterior a la fecha de emisión");
  });
});
