import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { createDriver, createPassenger } from "../support/trips.js";
import { ACCEPT, dartGet, dartPost, double, ok } from "./dart.js";

// The deployed app's files named here (lib/src/…) are in https://github.com/Braian551/pingo/tree/35be6b2751ba54667ec1437fc46cd3a8ee79fd51.

/**
 * A driver's working day with the calls pingo's driver screens (lib/src/features/conductor/ at 35be6b2, and the
 * home screen as it was at fe7b5cd, which loaded the driver and had the earnings and trips tabs) make, encoded as
 * their Dart code encodes them. Starting and completing a trip use the calls the app's trip data layer holds.
 */

let app: TestApp;
// Tuesday 08:00 in Bogotá.
const clock = new FixedClock("2026-03-10T13:00:00.000Z");
const TODAY = "2026-03-10";
beforeAll(async () => {
  app = await createTestApp({ clock });
});
afterAll(() => app.close());

const BOTH = { "content-type": "application/json", accept: "application/json" };
/** Where the driver waits (Cali), and where the passenger stands, 900 m away. */
const HERE = { latitude: 3.4516, longitude: -76.532 };
const PICKUP = { latitude: 3.4597, longitude: -76.5321 };

describe("a driver's day", () => {
  it("home, online twice, requests, accept, the trip's detail, start, complete, earnings, statistics and history", async () => {
    const driver = await createDriver(app, { tipo: "moto", at: { latitud: HERE.latitude, longitud: HERE.longitude }, online: false });
    const account = await app.db.user.findUniqueOrThrow({ where: { id: driver.id } });
    const vehicle = await app.db.vehicle.findUniqueOrThrow({ where: { conductor_id: driver.id } });
    const licence = await app.db.license.findUniqueOrThrow({ where: { conductor_id: driver.id } });
    const passenger = await createPassenger(app);

    // Home: ConductorProvider.loadConductorInfo → ConductorService.getConductorInfo
    // (lib/src/features/conductor/services/conductor_service.dart:15-35): ?conductor_id=<int>, Accept only.
    const home = ok(await dartGet(app, "/conductor/get_info.php", { conductor_id: driver.id }, ACCEPT));
    // What ConductorModel.fromJson reads (lib/src/features/conductor/models/conductor_model.dart:38-58).
    expect(home.conductor).toMatchObject({
      id: driver.id,
      nombre: account.nombre,
      apellido: account.apellido,
      email: account.email,
      telefono: account.telefono,
      foto_perfil: null,
      calificacion_promedio: 0,
      total_viajes: 0,
      disponible: 0,
      vehiculo_tipo: "motocicleta",
      vehiculo_marca: vehicle.marca,
      vehiculo_modelo: vehicle.modelo,
      vehiculo_placa: vehicle.placa,
      vehiculo_color: vehicle.color,
      licencia_numero: licence.numero,
      estado_verificacion: "aprobado",
      aprobado: true,
    });
    expect(new Date(home.conductor.licencia_vencimiento).getTime()).toBe(licence.fecha_expiracion!.getTime());
    expect(home.ubicacion).toBeNull();

    // Online: ConductorService.actualizarDisponibilidad (conductor_service.dart:105-143): disponible as an int 1, twice
    // (the old home's switch and the old searching screen both sent it); the second changes nothing and says so.
    const online = ok(await dartPost(app, "/conductor/actualizar_disponibilidad.php", { conductor_id: driver.id, disponible: 1 }, BOTH));
    expect(online).toMatchObject({ message: "Estás en línea", disponible: true });
    const again = ok(await dartPost(app, "/conductor/actualizar_disponibilidad.php", { conductor_id: driver.id, disponible: 1 }, BOTH));
    expect(again).toMatchObject({ message: "Ya estabas en línea", disponible: true });
    expect(await app.db.onlinePeriod.count({ where: { conductor_id: driver.id } })).toBe(1);

    // Requests: TripRequestSearchService._searchRequests every 5 s
    // (lib/src/features/conductor/services/trip_request_search_service.dart:67-88), with the coordinates captured at the start.
    const poll = () =>
      dartPost(app, "/conductor/get_solicitudes_pendientes.php", {
        conductor_id: driver.id,
        latitud_actual: double(HERE.latitude),
        longitud_actual: double(HERE.longitude),
        radio_km: double(5),
      });
    expect(ok(await poll()).solicitudes).toEqual([]);

    // A passenger nearby asks for a moto (TripRequestService.createTripRequest, lib/src/features/user/services/trip_request_service.dart:24-53).
    const created = ok(
      await dartPost(app, "/user/create_trip_request.php", {
        usuario_id: passenger.id,
        latitud_origen: double(PICKUP.latitude),
        longitud_origen: double(PICKUP.longitude),
        direccion_origen: "Cl. 5 #38-25, Cali",
        latitud_destino: double(3.4296),
        longitud_destino: double(-76.5408),
        direccion_destino: "Estadio Pascual Guerrero, Cali",
        tipo_servicio: "viaje",
        tipo_vehiculo: "moto",
        distancia_km: double(3.4821),
        duracion_minutos: 9,
        precio_estimado: double(11000),
      }),
    );
    clock.advance(5_000);
    const found = ok(await poll());
    // The filter reads `solicitud['id'] as int?` (l.99); the offer screen double.parse()s the origin.
    const request = found.solicitudes.find((entry: { id: number }) => entry.id === created.solicitud_id);
    expect(request).toMatchObject({
      latitud_origen: PICKUP.latitude,
      longitud_origen: PICKUP.longitude,
      direccion_origen: "Cl. 5 #38-25, Cali",
    });
    expect(Number.isInteger(request.id) && Number.isInteger(request.duracion_minutos)).toBe(true);

    // The offer screen's position stream: TripRequestSearchService.updateLocation (l.118-140).
    clock.advance(5_000);
    ok(
      await dartPost(app, "/conductor/update_location.php", {
        conductor_id: driver.id,
        latitud: double(3.4531),
        longitud: double(-76.532),
      }),
    );

    // Accept: TripRequestSearchService.acceptRequest (l.142-171); the screen reads viaje_id when there is one.
    const accepted = ok(await dartPost(app, "/conductor/accept_trip_request.php", { solicitud_id: request.id, conductor_id: driver.id }));
    expect(accepted.viaje_id).toBe(request.id);

    // The trip's detail: ConductorTripsService.getTripDetails (lib/src/features/conductor/services/conductor_trips_service.dart:262-308).
    const detail = () => dartGet(app, "/conductor/get_viaje_detalle.php", { conductor_id: driver.id, viaje_id: request.id }, BOTH);
    const passengerAccount = await app.db.user.findUniqueOrThrow({ where: { id: passenger.id } });
    // TripModel.fromJson (l.94-95) keeps `json['origen']?.toString()`, and the detail sheet prints it: an address.
    expect(ok(await detail()).viaje).toMatchObject({
      id: request.id,
      estado: "aceptada",
      origen: "Cl. 5 #38-25, Cali",
      destino: "Estadio Pascual Guerrero, Cali",
      cliente_nombre: passengerAccount.nombre,
      cliente_apellido: passengerAccount.apellido,
      duracion_estimada: expect.any(Number),
      fecha_completado: null,
    });

    // Start and complete: TripRemoteDataSourceImpl.startTrip and completeTrip
    // (lib/src/features/trips/data/datasources/trip_remote_datasource.dart:229-281).
    clock.advance(4 * 60_000);
    ok(await dartPost(app, "/viajes/start_trip.php", { trip_id: request.id }));
    clock.advance(11 * 60_000);
    const completed = ok(
      await dartPost(app, "/viajes/complete_trip.php", { trip_id: request.id, precio_final: double(14000), distancia_real: double(3.9) }),
    );
    expect(completed.trip).toMatchObject({ estado: "completado", precio_final: 14000, distancia_km: 3.9 });

    // Earnings: ConductorEarningsService.getTodayEarnings and getWeekEarnings
    // (lib/src/features/conductor/services/conductor_earnings_service.dart:61-90, 145-167): local dates, YYYY-MM-DD.
    const today = ok(
      await dartGet(app, "/conductor/get_ganancias.php", { conductor_id: driver.id, fecha_inicio: TODAY, fecha_fin: TODAY }, BOTH),
    );
    // Net of the platform's 15 %.
    // EarningsModel.fromJson reads desglose_diario as [{fecha, ganancias, viajes}] for the day-by-day chart.
    expect(today.ganancias).toEqual({
      total: 11900,
      total_viajes: 1,
      promedio_por_viaje: 11900,
      desglose_diario: [{ fecha: TODAY, ganancias: 11900, viajes: 1 }],
    });
    const week = ok(
      await dartGet(app, "/conductor/get_ganancias.php", { conductor_id: driver.id, fecha_inicio: "2026-03-03", fecha_fin: TODAY }, BOTH),
    );
    expect(week.ganancias.total_viajes).toBe(1);

    // Statistics: ConductorService.getEstadisticas (conductor_service.dart:84-102) reads estadisticas.
    const stats = ok(await dartGet(app, "/conductor/get_estadisticas.php", { conductor_id: driver.id }, ACCEPT));
    expect(stats.estadisticas).toMatchObject({ viajes_hoy: 1, ganancias_hoy: 11900 });
    // 10 s online, then 15 min with the trip.
    expect(stats.estadisticas.horas_hoy).toBe(0.25);

    // The passenger rates the ride: TripRemoteDataSourceImpl.rateConductor (trip_remote_datasource.dart:311-336).
    ok(await dartPost(app, "/viajes/rate_conductor.php", { trip_id: request.id, calificacion: 5, comentario: "Muy amable" }));

    // History: ConductorTripsService.getTripsHistory (conductor_trips_service.dart:146-171): page=1&limit=20; the filters compare 'completada'.
    const history = ok(await dartGet(app, "/conductor/get_historial.php", { conductor_id: driver.id, page: 1, limit: 20 }, BOTH));
    expect(history.viajes).toHaveLength(1);
    const [card] = history.viajes;
    expect(card).toMatchObject({
      id: request.id,
      estado: "completada",
      precio_final: 14000,
      cliente_nombre: passengerAccount.nombre,
      calificacion: 5,
      comentario: "Muy amable",
    });
    // What conductor_trips_screen.dart prints on the card (l.376-416): the passenger's full name, the stars, pickup and drop-off.
    const shown = {
      cliente: `${String(card.cliente_nombre ?? "")} ${String(card.cliente_apellido ?? "")}`,
      estrellas: (card.calificacion ?? 0).toFixed(1),
      recogida: card.origen?.toString() ?? "Punto de recogida",
      destino: card.destino?.toString() ?? "Destino",
    };
    expect(shown).toEqual({
      cliente: `${passengerAccount.nombre} ${passengerAccount.apellido}`,
      estrellas: "5.0",
      recogida: "Cl. 5 #38-25, Cali",
      destino: "Estadio Pascual Guerrero, Cali",
    });
    // viaje_activo_card.dart (l.154-157) finds the places on the map by these.
    expect(card).toMatchObject({
      latitud_origen: PICKUP.latitude,
      longitud_origen: PICKUP.longitude,
      latitud_destino: 3.4296,
      longitud_destino: -76.5408,
    });
    // The specification's own list keeps the places as objects (features/trips/data/models/trip_model.dart reads them as maps).
    expect(history.trips[0]).toMatchObject({
      origen: { direccion: "Cl. 5 #38-25, Cali", latitud: PICKUP.latitude },
      destino: { latitud: 3.4296 },
    });
    // The detail is the history's entry.
    expect(ok(await detail()).viaje).toEqual(history.viajes[0]);

    // Home again: one trip done, back online where the phone last was.
    const after = ok(await dartGet(app, "/conductor/get_info.php", { conductor_id: driver.id }, ACCEPT));
    expect(after.conductor).toMatchObject({ total_viajes: 1, disponible: 1, latitud: 3.4531, longitud: -76.532 });
    expect(after.ubicacion).toMatchObject({ latitud: 3.4531, longitud: -76.532, disponibilidad: 1 });
  });
});
