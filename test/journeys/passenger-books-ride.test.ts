import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { LLERAS, createDriver, createPassenger } from "../support/trips.js";
import { ACCEPT, dartGet, dartPost, double, ok } from "./dart.js";

// The deployed app's files named here (lib/src/…) are in https://github.com/Braian551/pingo/tree/35be6b2751ba54667ec1437fc46cd3a8ee79fd51.

/**
 * A passenger books a ride, screen after screen, with the calls pingo (the deployed Flutter app,
 * lib/src/ at 35be6b2) makes, encoded as its Dart code encodes them. Where the app has no screen
 * yet (tracking, rating, history) the step uses the call its data layer already holds.
 */

let app: TestApp;
// Tuesday 10:00 in Bogotá.
const clock = new FixedClock("2026-03-10T15:00:00.000Z");
beforeAll(async () => {
  app = await createTestApp({ clock });
});
afterAll(() => app.close());

const CONTENT_TYPE_ONLY = { "content-type": "application/json" };
/** Where the passenger stands, as Geolocator gives it. */
const ORIGIN = { latitude: 6.208612, longitude: -75.565913, address: LLERAS.direccion };

/** TripRequestService.findNearbyDrivers (lib/src/features/user/services/trip_request_service.dart:83-115). */
const findNearbyDrivers = () =>
  dartPost(app, "/user/find_nearby_drivers.php", {
    latitud: double(ORIGIN.latitude),
    longitud: double(ORIGIN.longitude),
    tipo_vehiculo: "moto",
    radio_km: double(5),
  });

/** TripRequestService.getTripStatus (trip_request_service.dart:179-203): the id interpolated, Content-Type on a GET. */
const getTripStatus = async (solicitudId: number, extra: Record<string, number> = {}) =>
  ok(await dartGet(app, "/user/get_trip_status.php", { solicitud_id: solicitudId, ...extra }, CONTENT_TYPE_ONLY)).trip;

describe("a passenger books a ride", () => {
  it("from the home screen to the trip history, and a second request cancelled while waiting", async () => {
    const passenger = await createPassenger(app);
    const driver = await createDriver(app, { tipo: "moto", at: { latitud: 6.2131, longitud: -75.5652 } });
    const driverAccount = await app.db.user.findUniqueOrThrow({ where: { id: driver.id } });
    const vehicle = await app.db.vehicle.findUniqueOrThrow({ where: { conductor_id: driver.id } });

    // Home: HomeUserScreen._loadUserData (lib/src/features/user/presentation/screens/home_user.dart:124-140)
    // → UserService.getProfile (lib/src/global/services/auth/user_service.dart:164-177): ?userId=<int>, Accept only.
    const profile = ok(await dartGet(app, "/auth/profile.php", { userId: passenger.id }, ACCEPT));
    expect(typeof profile.data.user.nombre).toBe("string");
    // UserProfileScreen casts location to Map<String, dynamic>?: an object or null, never false.
    expect(profile.data.location === null || typeof profile.data.location === "object").toBe(true);

    // Cars around: the same call SearchingDriverScreen repeats (searching_driver_screen.dart:70-78); only how many counts.
    const around = ok(await findNearbyDrivers());
    expect(around.conductores).toHaveLength(1);
    expect(around.conductores[0]).toEqual({
      vehiculo_tipo: "motocicleta",
      latitud: expect.any(Number),
      longitud: expect.any(Number),
      distancia_km: expect.any(Number),
    });

    // Destination: MapRemoteDataSourceImpl.searchNearbyPlaces (lib/src/features/maps/data/datasources/map_remote_datasource.dart:137-166):
    // lat, lng and radius interpolated as doubles, the query through Uri.encodeComponent, Content-Type on a GET.
    const search = ok(
      await dartGet(
        app,
        "/map/search_places.php",
        { lat: double(ORIGIN.latitude), lng: double(ORIGIN.longitude), query: "Envigado", radius: double(1) },
        CONTENT_TYPE_ONLY,
      ),
    );
    const destination = search.places[0];
    expect(destination).toMatchObject({ ciudad: "Envigado", departamento: "Antioquia", pais: "Colombia" });
    expect(destination.distancia_km).toBeGreaterThan(2);

    // Route and price: MapRemoteDataSourceImpl.calculateRoute (map_remote_datasource.dart:74-103), then the server's own quote,
    // which TripPreviewScreen still computes on the phone (lib/src/features/user/presentation/screens/trip_preview_screen.dart:316-412).
    const origin = { latitud: double(ORIGIN.latitude), longitud: double(ORIGIN.longitude) };
    const target = { latitud: double(destination.latitud), longitud: double(destination.longitud) };
    const { route } = ok(await dartPost(app, "/map/calculate_route.php", { origin, destination: target }));
    expect(route.distancia_km).toBeGreaterThan(destination.distancia_km);
    const quote = await app.graphql(
      `query ($input: CreateTripInput!) { fareEstimate(input: $input) { ... on EstimacionTarifa { precio_estimado conductores_disponibles } } }`,
      {
        input: {
          tipo_vehiculo: "moto",
          origen: { latitud: ORIGIN.latitude, longitud: ORIGIN.longitude },
          destino: { latitud: destination.latitud, longitud: destination.longitud },
        },
      },
    );
    const fare = quote.data.fareEstimate;
    expect(fare.conductores_disponibles).toBe(1);

    // Request: TripPreviewScreen._confirmTrip (trip_preview_screen.dart:1703-1727) → TripRequestService.createTripRequest
    // (trip_request_service.dart:24-53): ids as ints, coordinates, distance and price as doubles, minutes as an int; the
    // price is the one the phone worked out, which the service ignores.
    const requestTrip = (phonePrice: number) =>
      dartPost(app, "/user/create_trip_request.php", {
        usuario_id: passenger.id,
        latitud_origen: double(ORIGIN.latitude),
        longitud_origen: double(ORIGIN.longitude),
        direccion_origen: ORIGIN.address,
        latitud_destino: double(destination.latitud),
        longitud_destino: double(destination.longitud),
        direccion_destino: destination.direccion,
        tipo_servicio: "viaje",
        tipo_vehiculo: "moto",
        distancia_km: double(route.distancia_km),
        duracion_minutos: route.duracion_minutos,
        precio_estimado: double(phonePrice),
      });

    const created = ok(await requestTrip(fare.precio_estimado + 350));
    const solicitudId = created.solicitud_id;
    expect(Number.isInteger(solicitudId)).toBe(true);
    expect(created.conductores_encontrados).toBe(1);

    // Searching: SearchingDriverScreen._startSearching polls every 3 s (searching_driver_screen.dart:61-68).
    for (let poll = 0; poll < 2; poll++) {
      expect(ok(await findNearbyDrivers()).conductores).toHaveLength(1);
      clock.advance(3_000);
    }

    // Waiting: WaitingForDriverScreen._checkTripStatus (lib/src/features/user/presentation/screens/waiting_for_driver_screen.dart:108-148).
    const waiting = await getTripStatus(solicitudId);
    expect(waiting).toMatchObject({
      id: solicitudId,
      estado: "pendiente",
      origen: { latitud: ORIGIN.latitude, longitud: ORIGIN.longitude, direccion: ORIGIN.address },
      destino: { latitud: destination.latitud, longitud: destination.longitud, direccion: destination.direccion },
      distancia_km: route.distancia_km,
      tiempo_estimado_min: route.duracion_minutos,
      // The price is the server's, not the one the phone sent.
      precio_estimado: fare.precio_estimado,
      conductor: null,
    });
    expect(Number.isNaN(Date.parse(waiting.fecha_creacion))).toBe(false);

    // The driver takes it: TripRequestSearchService.acceptRequest (lib/src/features/conductor/services/trip_request_search_service.dart:142-171).
    ok(await dartPost(app, "/conductor/accept_trip_request.php", { solicitud_id: solicitudId, conductor_id: driver.id }));

    // As the app asks today, naming nobody: it sees 'aceptada' and moves on, but not who is coming.
    expect(await getTripStatus(solicitudId)).toMatchObject({ estado: "aceptada", conductor: null });
    // Naming the passenger (usuario_id, the one thing the app must add), it gets what _buildDriverFoundInfo shows (l.554-647).
    const accepted = await getTripStatus(solicitudId, { usuario_id: passenger.id });
    expect(accepted.estado).toBe("aceptada");
    expect(accepted.conductor).toEqual({
      nombre: `${driverAccount.nombre} ${driverAccount.apellido}`,
      telefono: driverAccount.telefono,
      calificacion: expect.any(Number),
      vehiculo: { tipo: "motocicleta", marca: vehicle.marca, modelo: vehicle.modelo, placa: vehicle.placa, color: vehicle.color },
      ubicacion: { latitud: 6.2131, longitud: -75.5652 },
    });
    // The driver is no longer free: the searching screen's count drops.
    expect(ok(await findNearbyDrivers()).conductores).toEqual([]);

    // The driver heads to the pickup (startRoute: GraphQL, the driver app has no legacy call for it).
    const onTheWay = await app.graphql(`mutation ($id: Int!) { startRoute(trip_id: $id) { __typename } }`, { id: solicitudId }, driver.id);
    expect(onTheWay.data.startRoute.__typename).toBe("Viaje");
    expect((await getTripStatus(solicitudId, { usuario_id: passenger.id })).estado).toBe("conductor_asignado");

    // Tracking: the waiting screen hands trip.conductor to /user/tracking_driver (l.130-139); each poll follows the driver,
    // whose phone reports through TripRequestSearchService.updateLocation (trip_request_search_service.dart:118-140).
    for (const latitud of [6.2112, 6.2094]) {
      clock.advance(10_000);
      await dartPost(app, "/conductor/update_location.php", {
        conductor_id: driver.id,
        latitud: double(latitud),
        longitud: double(-75.5657),
      });
      expect((await getTripStatus(solicitudId, { usuario_id: passenger.id })).conductor.ubicacion).toEqual({ latitud, longitud: -75.5657 });
    }

    // Picked up and carried: TripRemoteDataSourceImpl.startTrip and completeTrip
    // (lib/src/features/trips/data/datasources/trip_remote_datasource.dart:229-281), as the driver's phone would send them.
    ok(await dartPost(app, "/viajes/start_trip.php", { trip_id: solicitudId }));
    expect((await getTripStatus(solicitudId, { usuario_id: passenger.id })).estado).toBe("en_transito");
    clock.advance(12 * 60_000);
    ok(
      await dartPost(app, "/viajes/complete_trip.php", {
        trip_id: solicitudId,
        precio_final: double(fare.precio_estimado),
        distancia_real: null,
      }),
    );
    const done = await getTripStatus(solicitudId, { usuario_id: passenger.id });
    expect(done.estado).toBe("completada");
    expect(done.conductor.ubicacion).toBeNull();

    // Rating: TripRemoteDataSourceImpl.rateConductor (trip_remote_datasource.dart:312-336): {trip_id, calificacion, comentario}.
    ok(await dartPost(app, "/viajes/rate_conductor.php", { trip_id: solicitudId, calificacion: 5, comentario: "Muy amable" }));

    // History: TripRemoteDataSourceImpl.getTripHistory (trip_remote_datasource.dart:126-149): ?usuario_id=, reads trips.
    const history = ok(await dartGet(app, "/viajes/get_trip_history.php", { usuario_id: passenger.id }, CONTENT_TYPE_ONLY));
    expect(history.trips).toEqual([
      expect.objectContaining({
        id: solicitudId,
        usuario_id: passenger.id,
        conductor_id: driver.id,
        estado: "completado",
        precio_final: fare.precio_estimado,
        calificacion_conductor: 5,
        comentario_conductor: "Muy amable",
      }),
    ]);
    expect(Number.isNaN(Date.parse(history.trips[0].fecha_solicitud))).toBe(false);

    // Another ride, given up while waiting: WaitingForDriverScreen._cancelTrip (waiting_for_driver_screen.dart:230-355)
    // → TripRequestService.cancelTripRequestWithReason (trip_request_service.dart:206-237). The driver, back online, still reports.
    await dartPost(app, "/conductor/update_location.php", { conductor_id: driver.id, latitud: double(6.2094), longitud: double(-75.5657) });
    const again = ok(await requestTrip(fare.precio_estimado));
    expect((await getTripStatus(again.solicitud_id)).estado).toBe("pendiente");
    const cancelled = ok(
      await dartPost(app, "/user/cancel_trip_request.php", {
        solicitud_id: again.solicitud_id,
        cliente_id: passenger.id,
        motivo: "Cliente canceló durante búsqueda",
      }),
    );
    expect(cancelled.solicitud_id).toBe(again.solicitud_id);
    // The screen shows its cancelled dialog on 'cancelada' (l.142-146).
    expect(await getTripStatus(again.solicitud_id)).toMatchObject({ estado: "cancelada", conductor: null });
  });
});
