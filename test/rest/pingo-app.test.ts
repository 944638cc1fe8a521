import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { newAdmin, newDriver, submittedDriver } from "../support/drivers.js";
import { PASSWORD, uniqueEmail } from "../support/fixtures.js";
import { createDriver, northOf, tripIn } from "../support/trips.js";

/**
 * Replays pingo's (the deployed Flutter app's) requests exactly as its Dart code encodes them:
 * JSON bodies with `content-type: application/json; charset=utf-8` (package:http adds the charset), ids as JSON ints,
 * doubles such as 5.0, dates from DateTime.toIso8601String() without a zone, multipart parts as octet-stream.
 * The app's files named here are in https://github.com/Braian551/pingo/tree/35be6b2751ba54667ec1437fc46cd3a8ee79fd51.
 */

let app: TestApp;
// Tuesday 10:00 in Bogotá.
const clock = new FixedClock("2026-03-10T15:00:00.000Z");
const TODAY = "2026-03-10";
beforeAll(async () => {
  app = await createTestApp({ clock });
});
afterAll(() => app.close());

const DART_JSON = { "content-type": "application/json; charset=utf-8" };
const ACCEPT_JSON = { ...DART_JSON, accept: "application/json" };

/** A JSON call as package:http encodes it. */
const dart = (method: string, path: string, body: Record<string, unknown>, headers: Record<string, string> = DART_JSON) =>
  app.legacy(method, path, body, headers);

/** A GET with a query string, as Uri.replace(queryParameters: ...) builds it. */
const dartGet = (path: string, query: Record<string, string>) => app.legacy("GET", path, query, { accept: "application/json" });

const ok = (response: { status: number; body: any }) => {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.success, JSON.stringify(response.body)).toBe(true);
};

/** DocumentUploadService.uploadDocument: http.MultipartRequest with MultipartFile.fromPath (octet-stream part), no headers. */
async function dartUpload(conductorId: number, tipoDocumento: string) {
  const form = new FormData();
  form.append("conductor_id", conductorId.toString());
  form.append("tipo_documento", tipoDocumento);
  const bytes = readFileSync(join("test", "fixtures", "documento.jpg"));
  form.append("documento", new Blob([bytes], { type: "application/octet-stream" }), "image_picker_3F2A.jpg");
  const response = await app.server.fetch(new Request("http://test/conductor/upload_documents.php", { method: "POST", body: form }));
  return { status: response.status, body: await response.json() };
}

const profileOf = async (conductorId: number) => {
  const response = await dartGet("/conductor/get_profile.php", { conductor_id: String(conductorId) });
  ok(response);
  return response.body.profile;
};

// Bogotá, far from the Medellín drivers the support helpers place.
const ORIGEN = { direccion: "Cra. 7 #32-16, Bogotá", latitud: 4.6186, longitud: -74.0689 };
const DESTINO = { direccion: "Parque de la 93, Bogotá", latitud: 4.6767, longitud: -74.0483 };

/** TripRequestService.createTripRequest's body, from TripPreviewScreen._confirmTrip. */
const tripRequestBody = (usuarioId: number) => ({
  usuario_id: usuarioId,
  latitud_origen: ORIGEN.latitud,
  longitud_origen: ORIGEN.longitud,
  direccion_origen: ORIGEN.direccion,
  latitud_destino: DESTINO.latitud,
  longitud_destino: DESTINO.longitud,
  direccion_destino: DESTINO.direccion,
  tipo_servicio: "viaje",
  tipo_vehiculo: "moto",
  distancia_km: 7.4821,
  duracion_minutos: 19,
  precio_estimado: 13227.5,
});

/** RegisterScreen._register → UserService.registerUser. */
async function registerAsApp(fields: Record<string, unknown> = {}) {
  const email = uniqueEmail("pingo");
  const response = await dart(
    "POST",
    "/auth/register.php",
    {
      email,
      password: PASSWORD,
      name: "Laura",
      lastName: "Gómez",
      phone: "3001234567",
      country: "Colombia",
      ...fields,
    },
    ACCEPT_JSON,
  );
  ok(response);
  return { email, response };
}

describe("pingo's passenger and account calls", () => {
  // lib/src/global/services/auth/user_service.dart
  it("register, login with device_uuid and profile?userId= as UserService sends them", async () => {
    const { email, response } = await registerAsApp();
    expect(response.body.data.user.id).toEqual(expect.any(Number));
    expect(response.body.user.id).toBe(response.body.data.user.id);
    const id = response.body.data.user.id as number;

    const login = await dart(
      "POST",
      "/auth/login.php",
      { email, password: PASSWORD, device_uuid: "8b0f2a4e-5c1d-4e7a-9f3b-2d6c8e1a7b90" },
      ACCEPT_JSON,
    );
    ok(login);
    expect(login.body.data.user).toMatchObject({ id, email, tipo_usuario: expect.any(String), nombre: "Laura", telefono: "3001234567" });

    const profile = await dartGet("/auth/profile.php", { userId: id.toString() });
    ok(profile);
    expect(profile.body.data.user).toMatchObject({ id, email, nombre: "Laura" });
    expect(profile.body.data).toHaveProperty("location");
    expect(profile.body.user).toMatchObject({ id, email });
    expect(profile.body).toHaveProperty("location");
    expect(profile.body.location).toEqual(profile.body.data.location);
  });
});

describe("pingo's driver onboarding calls", () => {
  // lib/src/features/conductor/models/driver_license_model.dart
  it("update_license as DriverLicenseModel.toJson sends it, then get_profile", async () => {
    const driver = await newDriver(app);
    // ConductorProfileService.updateLicense: {'conductor_id': conductorId, ...license.toJson()}.
    const response = await dart(
      "POST",
      "/conductor/update_license.php",
      {
        conductor_id: driver.id,
        licencia_conduccion: "1032456789",
        licencia_expedicion: "2020-01-15T00:00:00.000",
        licencia_vencimiento: "2030-01-15T00:00:00.000",
        licencia_categoria: "A2",
        licencia_verificada: 0,
      },
      ACCEPT_JSON,
    );
    ok(response);

    const stored = await app.db.license.findUnique({ where: { conductor_id: driver.id } });
    expect(stored).toMatchObject({ numero: "1032456789", tipo: "A2" });
    // A zone-less date is Bogotá's: the licence is valid through the end of 15 January 2030 there.
    expect(stored!.fecha_expiracion!.toISOString()).toBe("2030-01-16T04:59:59.999Z");

    const licencia = (await profileOf(driver.id)).licencia;
    expect(licencia).toMatchObject({ numero: "1032456789", tipo: "A2", licencia_conduccion: "1032456789", licencia_categoria: "A2" });
    expect(new Date(licencia.fecha_expiracion).toISOString()).toBe("2030-01-16T04:59:59.999Z");
    expect(licencia.licencia_vencimiento).toBe(licencia.fecha_expiracion);
  });

  // lib/src/features/conductor/services/conductor_profile_service.dart
  it(
    "license photo, vehicle, documents, submit_verification and get_verification_status " + "as the registration screens chain them",
    async () => {
      const driver = await newDriver(app);
      ok(
        await dart(
          "POST",
          "/conductor/update_license.php",
          {
            conductor_id: driver.id,
            licencia_conduccion: "79845123",
            licencia_expedicion: "2019-06-03T00:00:00.000",
            licencia_vencimiento: "2031-06-03T00:00:00.000",
            licencia_categoria: "A2",
            licencia_verificada: 0,
          },
          ACCEPT_JSON,
        ),
      );

      // LicenseRegistrationScreen uploads the photo after the licence is saved (DocumentUploadService).
      const licencePhoto = await dartUpload(driver.id, "licencia");
      ok(licencePhoto);
      expect(licencePhoto.body.data.url).toEqual(expect.any(String));

      // VehicleOnlyRegistrationScreen: VehicleModel.toJson (lib/src/features/conductor/models/vehicle_model.dart).
      const vehicle = await dart(
        "POST",
        "/conductor/update_vehicle.php",
        {
          conductor_id: driver.id,
          vehiculo_marca: "Yamaha",
          vehiculo_modelo: "NMAX",
          vehiculo_anio: 2023,
          vehiculo_color: "Negro",
          vehiculo_placa: "ABC12D",
          vehiculo_tipo: "motocicleta",
          aseguradora: null,
          numero_poliza_seguro: null,
          vencimiento_seguro: null,
          soat_numero: "SOAT-778899",
          soat_vencimiento: "2027-03-01T00:00:00.000",
          tecnomecanica_numero: "RTM-445566",
          tecnomecanica_vencimiento: "2027-02-01T00:00:00.000",
          tarjeta_propiedad_numero: "TP-112233",
        },
        ACCEPT_JSON,
      );
      ok(vehicle);
      const profile = await profileOf(driver.id);
      expect(profile.vehiculo).toMatchObject({
        marca: "Yamaha",
        modelo: "NMAX",
        anio: 2023,
        color: "Negro",
        placa: "ABC12D",
        tipo: "moto",
      });
      expect(profile.vehiculo).toMatchObject({
        soat_numero: "SOAT-778899",
        tecnomecanica_numero: "RTM-445566",
        tarjeta_propiedad_numero: "TP-112233",
      });

      const soat = await dartUpload(driver.id, "soat");
      ok(soat);
      expect(soat.body.data.url).toEqual(expect.any(String));

      // ConductorProfileScreen's submit button.
      const submit = await dart("POST", "/conductor/submit_verification.php", { conductor_id: driver.id }, ACCEPT_JSON);
      expect(submit.status, JSON.stringify(submit.body)).not.toBe(404);
      if (submit.status === 200) expect(submit.body.success).toBe(true);
      else {
        // The app never sends vehicle, tarjeta or RTM photos, so the application may be incomplete: the message must say what is missing.
        expect(submit.status, JSON.stringify(submit.body)).toBe(400);
        expect(submit.body.success).toBe(false);
        expect(submit.body.message).toMatch(/^Faltan datos/);
        // Names fields the app never sends, in the spec's dotted names.
        expect(submit.body.message).toContain("vehiculo.foto_vehiculo");
        expect(submit.body.message).toContain("licencia.imagen_reverso");
      }

      // VerificationStatusScreen reads these at the top level.
      const status = await dartGet("/conductor/get_verification_status.php", { conductor_id: driver.id.toString() });
      ok(status);
      expect(status.body.estado_verificacion).toEqual(expect.any(String));
      expect(status.body).toHaveProperty("aprobado");
      expect(status.body.aprobado).toBe(false);
    },
  );

  // lib/src/features/conductor/data/datasources/conductor_remote_datasource_impl.dart
  it("update_vehicle with the dead datasource's unprefixed names and 'carro'", async () => {
    const driver = await newDriver(app);
    const response = await dart(
      "POST",
      "/conductor/update_vehicle.php",
      {
        conductor_id: driver.id,
        marca: "Chevrolet",
        modelo: "Spark",
        anio: 2019,
        placa: "XYZ987",
        color: "Rojo",
        tipo: "carro",
      },
      ACCEPT_JSON,
    );
    ok(response);
    expect((await profileOf(driver.id)).vehiculo).toMatchObject({
      marca: "Chevrolet",
      modelo: "Spark",
      anio: 2019,
      placa: "XYZ987",
      color: "Rojo",
      tipo: "auto",
    });
  });

  // lib/src/features/conductor/services/conductor_profile_service.dart
  it("update_license with only a misspelled field, or with nothing to change, is refused and stores nothing", async () => {
    const driver = await newDriver(app);
    const misspelled = await dart("POST", "/conductor/update_license.php", { conductor_id: driver.id, licencia_numeroo: "X" }, ACCEPT_JSON);
    expect(misspelled.status, JSON.stringify(misspelled.body)).toBe(400);
    expect(misspelled.body.success).toBe(false);
    expect(misspelled.body.message).toContain("licencia_numeroo");

    const nothing = await dart("POST", "/conductor/update_license.php", { conductor_id: driver.id, licencia_verificada: 0 }, ACCEPT_JSON);
    expect(nothing.status, JSON.stringify(nothing.body)).toBe(400);
    expect(nothing.body.success).toBe(false);

    const empty = await dart(
      "POST",
      "/conductor/update_vehicle.php",
      { conductor_id: driver.id, aseguradora: null, numero_poliza_seguro: null, vencimiento_seguro: null },
      ACCEPT_JSON,
    );
    expect(empty.status, JSON.stringify(empty.body)).toBe(400);

    expect(await app.db.license.count({ where: { conductor_id: driver.id } })).toBe(0);
    const profile = await profileOf(driver.id);
    expect(profile.licencia).toBeNull();
    expect(profile.vehiculo).toBeNull();
  });
});

describe("pingo's admin calls", () => {
  // lib/src/global/services/admin/admin_service.dart
  it("user_management GET filtered by 'cliente', PUT es_activo 0/1, audit_logs as AdminService sends them", async () => {
    const admin = await newAdmin(app);
    const { response } = await registerAsApp();
    const passengerId = response.body.data.user.id as number;

    const list = await dartGet("/admin/user_management.php", {
      admin_id: admin.id.toString(),
      page: "1",
      per_page: "20",
      tipo_usuario: "cliente",
    });
    ok(list);
    expect(list.body.data.usuarios.length).toBeGreaterThan(0);
    expect(list.body.data.usuarios.map((u: { id: number }) => u.id)).toEqual(list.body.usuarios.map((u: { id: number }) => u.id));
    // The spec's words at the top level; under data, the app's (it compares es_activo == 1 and tipo_usuario == 'cliente').
    for (const user of list.body.usuarios) expect(user).toMatchObject({ tipo_usuario: "pasajero", es_activo: true });
    for (const user of list.body.data.usuarios) expect(user).toMatchObject({ tipo_usuario: "cliente", es_activo: 1 });

    const admins = await dartGet("/admin/user_management.php", {
      admin_id: admin.id.toString(),
      page: "1",
      per_page: "20",
      search: admin.email,
    });
    ok(admins);
    expect(admins.body.data.usuarios).toEqual([expect.objectContaining({ id: admin.id, tipo_usuario: "administrador", es_activo: 1 })]);

    // UsersManagementScreen._handleUserAction: {admin_id, user_id, es_activo: 1|0}.
    ok(await dart("PUT", "/admin/user_management.php", { admin_id: admin.id, user_id: passengerId, es_activo: 0 }, ACCEPT_JSON));
    expect((await app.db.user.findUnique({ where: { id: passengerId } }))!.es_activo).toBe(false);
    ok(await dart("PUT", "/admin/user_management.php", { admin_id: admin.id, user_id: passengerId, es_activo: 1 }, ACCEPT_JSON));
    expect((await app.db.user.findUnique({ where: { id: passengerId } }))!.es_activo).toBe(true);

    // AuditLogsScreen._loadLogs: page=1, per_page=50.
    const logs = await dartGet("/admin/audit_logs.php", { admin_id: admin.id.toString(), page: "1", per_page: "50" });
    ok(logs);
    expect(logs.body.data.logs.length).toBeGreaterThan(0);
    for (const log of logs.body.data.logs) {
      expect(log).toMatchObject({ accion: expect.any(String), descripcion: expect.any(String), fecha_creacion: expect.any(String) });
      expect(Number.isNaN(Date.parse(log.fecha_creacion))).toBe(false);
    }
  });

  // lib/src/features/admin/presentation/screens/conductor_actions.dart
  it("aprobar_conductor with notas: null and the English aliases", async () => {
    const admin = await newAdmin(app);
    const first = await submittedDriver(app, "moto");
    const second = await submittedDriver(app, "auto");

    const pending = await dartGet("/admin/get_pending_drivers.php", { admin_id: admin.id.toString() });
    ok(pending);
    expect(pending.body.drivers.map((entry: { id: number }) => entry.id)).toEqual(expect.arrayContaining([first.id, second.id]));

    ok(await dart("POST", "/admin/aprobar_conductor.php", { admin_id: admin.id, conductor_id: first.id, notas: null }, ACCEPT_JSON));
    expect((await app.db.driverProfile.findUnique({ where: { conductor_id: first.id } }))!.aprobado).toBe(true);
    ok(await dart("POST", "/admin/approve_driver.php", { admin_id: admin.id, conductor_id: second.id, notas: null }, ACCEPT_JSON));
    expect((await app.db.driverProfile.findUnique({ where: { conductor_id: second.id } }))!.aprobado).toBe(true);

    ok(
      await dart("POST", "/admin/suspend_user.php", { admin_id: admin.id, user_id: second.id, motivo: "Documentos vencidos" }, ACCEPT_JSON),
    );
    ok(await dart("POST", "/admin/activate_user.php", { admin_id: admin.id, user_id: second.id }, ACCEPT_JSON));
    expect((await app.db.user.findUnique({ where: { id: second.id } }))!.es_activo).toBe(true);
  });
});

describe("pingo's trip calls", () => {
  // lib/src/features/conductor/services/trip_request_search_service.dart
  it("driver online, passenger create_trip_request, driver polls, rejects, accepts, history and earnings", async () => {
    // An approved moto driver 1 km from the origin, offline until it says otherwise.
    const driver = await createDriver(app, { tipo: "moto", at: northOf(ORIGEN, 1), online: false });
    const at = northOf(ORIGEN, 1);
    // ConductorProvider.toggleDisponibilidad (lib/src/features/conductor/services/conductor_service.dart), then the position stream.
    ok(await dart("POST", "/conductor/actualizar_disponibilidad.php", { conductor_id: driver.id, disponible: 1 }, ACCEPT_JSON));
    ok(await dart("POST", "/conductor/update_location.php", { conductor_id: driver.id, latitud: at.latitud, longitud: at.longitud }));

    const { response: registered } = await registerAsApp();
    const passengerId = registered.body.data.user.id as number;

    // lib/src/features/user/services/trip_request_service.dart, createTripRequest.
    const first = await dart("POST", "/user/create_trip_request.php", tripRequestBody(passengerId));
    ok(first);
    expect(Number.isInteger(first.body.solicitud_id)).toBe(true);
    // TripPreviewScreen compares conductores_encontrados with 0 and 1: the one driver online nearby was told.
    expect(first.body.conductores_encontrados).toBe(1);
    const firstId = first.body.solicitud_id as number;
    const status = await app.legacy("GET", "/user/get_trip_status.php", { solicitud_id: String(firstId) }, DART_JSON);
    ok(status);
    expect(status.body.trip).toMatchObject({
      id: firstId,
      usuario_id: passengerId,
      origen: { direccion: ORIGEN.direccion, latitud: ORIGEN.latitud, longitud: ORIGEN.longitud },
      destino: { direccion: DESTINO.direccion, latitud: DESTINO.latitud, longitud: DESTINO.longitud },
    });

    // ConductorHomeScreen polls every 5 s with the coordinates captured when it started.
    const poll = () =>
      dart("POST", "/conductor/get_solicitudes_pendientes.php", {
        conductor_id: driver.id,
        latitud_actual: at.latitud,
        longitud_actual: at.longitud,
        radio_km: 5.0,
      });
    const seen = await poll();
    ok(seen);
    const request = seen.body.solicitudes.find((entry: { id: number }) => entry.id === firstId);
    expect(request, JSON.stringify(seen.body)).toBeDefined();
    expect(Number.isInteger(request.id)).toBe(true);
    expect(typeof request.latitud_origen).toBe("number");
    expect(request).toMatchObject({
      latitud_origen: ORIGEN.latitud,
      longitud_origen: ORIGEN.longitud,
      direccion_origen: ORIGEN.direccion,
      direccion_destino: DESTINO.direccion,
    });

    // The reject button (or the 30 s timeout): motivo is always 'Conductor rechazó'.
    ok(
      await dart("POST", "/conductor/reject_trip_request.php", {
        solicitud_id: firstId,
        conductor_id: driver.id,
        motivo: "Conductor rechazó",
      }),
    );
    // SearchingDriverScreen's cancel button: {solicitud_id} only.
    ok(await dart("POST", "/user/cancel_trip_request.php", { solicitud_id: firstId }));
    const cancelled = await app.legacy("GET", "/viajes/get_trip.php", { solicitud_id: String(firstId) });
    ok(cancelled);
    expect(cancelled.body.trip.estado).toMatch(/^cancelad/);

    const second = await dart("POST", "/user/create_trip_request.php", tripRequestBody(passengerId));
    ok(second);
    const secondId = second.body.solicitud_id as number;
    const again = await poll();
    ok(again);
    expect(again.body.solicitudes.map((entry: { id: number }) => entry.id)).toContain(secondId);

    const accepted = await dart("POST", "/conductor/accept_trip_request.php", { solicitud_id: secondId, conductor_id: driver.id });
    ok(accepted);
    expect(accepted.body.viaje_id).toBe(secondId);
    // ConductorSearchingPassengersScreen.dispose() always follows with disponible: 0.
    ok(await dart("POST", "/conductor/actualizar_disponibilidad.php", { conductor_id: driver.id, disponible: 0 }, ACCEPT_JSON));

    // Not app calls: the trip runs to its end so the history and earnings screens have something to show.
    ok(await app.legacy("POST", "/viajes/start_trip.php", { trip_id: secondId }));
    ok(await app.legacy("POST", "/viajes/complete_trip.php", { trip_id: secondId, precio_final: 14000 }));

    // ConductorTripsScreen (lib/src/features/conductor/services/conductor_trips_service.dart): page=1&limit=20, Content-Type on a GET.
    const history = await app.legacy(
      "GET",
      "/conductor/get_historial.php",
      { conductor_id: String(driver.id), page: "1", limit: "20" },
      ACCEPT_JSON,
    );
    ok(history);
    // The spec's trips, and the same trips with the names, states and addresses as text that TripModel.fromJson and the filters read.
    const APP_STATES: Record<string, string> = { completado: "completada", cancelado: "cancelada" };
    type Place = { direccion: string; latitud: number; longitud: number };
    expect(history.body.viajes).toEqual(
      history.body.trips.map(({ origen, destino, ...trip }: { estado: string; origen: Place; destino: Place }) =>
        expect.objectContaining({
          ...trip,
          estado: APP_STATES[trip.estado],
          origen: origen.direccion,
          destino: destino.direccion,
          latitud_origen: origen.latitud,
          longitud_origen: origen.longitud,
          latitud_destino: destino.latitud,
          longitud_destino: destino.longitud,
        }),
      ),
    );
    const done = history.body.viajes.find((trip: { id: number }) => trip.id === secondId);
    expect(done, JSON.stringify(history.body)).toBeDefined();
    expect(done.usuario_id).toBe(passengerId);
    const passenger = await app.db.user.findUniqueOrThrow({ where: { id: passengerId } });
    expect(done).toMatchObject({
      cliente_nombre: passenger.nombre,
      cliente_apellido: passenger.apellido,
      fecha_completado: done.fecha_fin,
      duracion_estimada: done.duracion_estimada_minutos,
    });
    for (const trip of history.body.viajes) expect(Number.isInteger(trip.usuario_id)).toBe(true);

    // ConductorEarningsScreen (lib/src/features/conductor/services/conductor_earnings_service.dart): today = fecha_inicio = fecha_fin.
    const earnings = await app.legacy(
      "GET",
      "/conductor/get_ganancias.php",
      { conductor_id: String(driver.id), fecha_inicio: TODAY, fecha_fin: TODAY },
      ACCEPT_JSON,
    );
    ok(earnings);
    expect(earnings.body.ganancias).toMatchObject({ total: expect.any(Number), total_viajes: 1, promedio_por_viaje: expect.any(Number) });
    expect(earnings.body.ganancias.total).toBeGreaterThan(0);
    expect(earnings.body.ganancias.promedio_por_viaje).toBe(earnings.body.ganancias.total);
  });

  // lib/src/features/conductor/services/trip_request_search_service.dart
  it("the live home screen's get_solicitudes_pendientes puts the driver online and lists requests", async () => {
    const HERE = { latitud: 3.4516, longitud: -76.532 }; // Cali
    const driver = await createDriver(app, { tipo: "moto", at: HERE, online: false });
    const look = await dart("POST", "/conductor/get_solicitudes_pendientes.php", {
      conductor_id: driver.id,
      latitud_actual: HERE.latitud,
      longitud_actual: HERE.longitud,
      radio_km: 5.0,
    });
    ok(look);
    expect(Array.isArray(look.body.solicitudes)).toBe(true);

    // A passenger who typed two given names: the driver's screen (conductor_searching_passengers_screen.dart) shows the first.
    const { response } = await registerAsApp({ name: "Laura Sofía", lastName: "Gómez Arango" });
    const passengerId = response.body.data.user.id as number;
    // Geolocator-like coordinates, about 500 m from the driver; the destination is also in Cali.
    const origin = { latitud: 3.4561, longitud: -76.532 };
    const created = await dart("POST", "/user/create_trip_request.php", {
      ...tripRequestBody(passengerId),
      latitud_origen: origin.latitud,
      longitud_origen: origin.longitud,
      direccion_origen: "Cl. 5 #38-25, Cali",
      latitud_destino: 3.4296,
      longitud_destino: -76.5408,
      direccion_destino: "Estadio Pascual Guerrero, Cali",
      distancia_km: 3.4821,
      duracion_minutos: 9,
    });
    ok(created);
    const again = await dart("POST", "/conductor/get_solicitudes_pendientes.php", {
      conductor_id: driver.id,
      latitud_actual: HERE.latitud,
      longitud_actual: HERE.longitud,
      radio_km: 5.0,
    });
    ok(again);
    const request = again.body.solicitudes.find((entry: { id: number }) => entry.id === created.body.solicitud_id);
    expect(request, JSON.stringify(again.body)).toMatchObject({ latitud_origen: origin.latitud, direccion_origen: "Cl. 5 #38-25, Cali" });
    expect(Number.isInteger(request.id)).toBe(true);
    // Her first name, never more of her account.
    expect(request.cliente_nombre).toBe("Laura");
    expect(JSON.stringify(request)).not.toMatch(/Sofía|Gómez|Arango|pingo\.|300123/);
  });

  it("a deleted passenger's trips keep usuario_id in the driver's history (lib/src/global/services/admin/admin_service.dart)", async () => {
    const admin = await newAdmin(app);
    const { passenger, driver, trip } = await tripIn(app, "completado");
    // AdminService.deleteUser: a JSON body on DELETE.
    ok(await dart("DELETE", "/admin/user_management.php", { admin_id: admin.id, user_id: passenger.id }, ACCEPT_JSON));
    const history = await app.legacy(
      "GET",
      "/conductor/get_historial.php",
      { conductor_id: String(driver.id), page: "1", limit: "20" },
      ACCEPT_JSON,
    );
    ok(history);
    const kept = history.body.viajes.find((entry: { id: number }) => entry.id === trip.id);
    expect(kept, JSON.stringify(history.body)).toBeDefined();
    expect(kept.usuario_id).toBe(passenger.id);
  });
});
