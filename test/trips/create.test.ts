import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countPendingTripsNear } from "../../src/domain/matching/requests.js";
import { computeFare, demandCountLimit, demandMultiplier } from "../../src/domain/pricing/fare.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { tableCounts } from "../support/fixtures.js";
import { ESTADIO, LLERAS, createDriver, createPassenger, northOf, requestTrip } from "../support/trips.js";

let app: TestApp;
// Tuesday 10:00 in Bogotá: no surcharge.
const clock = new FixedClock("2026-03-10T15:00:00Z");
beforeAll(async () => {
  app = await createTestApp({ clock });
});
afterAll(() => app.close());

const create = (body: Record<string, unknown>, headers?: Record<string, string>) =>
  app.legacy("POST", "/viajes/create_trip.php", body, headers);
const counts = async () => ({ ...(await tableCounts(app)), trips: await app.db.trip.count(), offers: await app.db.tripOffer.count() });

// Cali, far from the Medellín drivers the other tests create.
const CALI = { direccion: "Parque del Perro, Cali", latitud: 3.4393, longitud: -76.5433 };
const CALI_DEST = { direccion: "Estadio Pascual Guerrero", latitud: 3.4296, longitud: -76.5408 };

describe("POST /viajes/create_trip.php", () => {
  it("creates a pending trip with estimates and answers 200", async () => {
    const passenger = await createPassenger(app);
    const driver = await createDriver(app, { tipo: "auto", at: northOf(LLERAS, 1) });
    const response = await create({
      usuario_id: passenger.id,
      tipo_servicio: "auto",
      origen: { ...LLERAS, referencia: "Frente al parque" },
      destino: ESTADIO,
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.message).toEqual(expect.any(String));
    const trip = response.body.trip;
    expect(Object.keys(trip).sort()).toEqual([
      "calificacion_conductor",
      "calificacion_usuario",
      "comentario_conductor",
      "comentario_usuario",
      "conductor_id",
      "destino",
      "distancia_km",
      "duracion_estimada_minutos",
      "estado",
      "fecha_aceptacion",
      "fecha_fin",
      "fecha_inicio",
      "fecha_solicitud",
      "id",
      "metodo_pago",
      "motivo_cancelacion",
      "origen",
      "pin_inicio",
      "precio_estimado",
      "precio_final",
      "tipo_servicio",
      "usuario_id",
    ]);
    expect(trip).toMatchObject({
      usuario_id: passenger.id,
      conductor_id: null,
      tipo_servicio: "auto",
      estado: "pendiente",
      metodo_pago: "efectivo",
      origen: { ...LLERAS, referencia: "Frente al parque" },
      destino: { ...ESTADIO, referencia: null },
      precio_final: null,
      // Drawn when a driver accepts.
      pin_inicio: null,
      fecha_solicitud: clock.now().toISOString(),
      fecha_aceptacion: null,
      fecha_inicio: null,
      fecha_fin: null,
    });
    // The estimate is the route calculation's.
    const route = await app.legacy("POST", "/map/calculate_route.php", { origin: LLERAS, destination: ESTADIO });
    expect(trip.distancia_km).toBe(route.body.route.distancia_km);
    expect(trip.duracion_estimada_minutos).toBe(route.body.route.duracion_minutos);
    // Priced with the stored rates and the demand near the pickup.
    const rate = await app.db.pricingRate.findUniqueOrThrow({ where: { tipo_vehiculo: "auto" } });
    const available = await app.db.driverStatus.count({ where: { disponible: true } });
    const pending = await app.db.trip.count({ where: { estado: "pendiente", tipo_servicio: "auto" } });
    const fare = computeFare(rate, {
      distanceKm: trip.distancia_km,
      minutes: trip.duracion_estimada_minutos,
      at: clock.now(),
      demand: demandMultiplier(pending, available),
    });
    expect(trip.precio_estimado).toBe(fare.precio_estimado);
    // The driver nearby was offered it.
    const offer = await app.db.tripOffer.findUniqueOrThrow({
      where: { viaje_id_conductor_id: { viaje_id: trip.id, conductor_id: driver.id } },
    });
    expect(offer).toMatchObject({ respuesta: null, mostrada_en: clock.now() });
  });

  it("answers 200 with success false when no driver is within 5 km, and writes nothing", async () => {
    const passenger = await createPassenger(app);
    await createDriver(app, { tipo: "auto", at: northOf(CALI, 5.2) });
    const before = await counts();
    const response = await create({ usuario_id: passenger.id, tipo_servicio: "auto", origen: CALI, destino: CALI_DEST });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: false,
      message: "No hay conductores disponibles cerca del punto de origen en este momento; intenta de nuevo en unos minutos",
    });
    expect(await counts()).toEqual(before);
  });

  it("matches only drivers of the vehicle type the service needs", async () => {
    const passenger = await createPassenger(app);
    await createDriver(app, { tipo: "moto", at: northOf(CALI, 0.5) });
    expect((await create({ usuario_id: passenger.id, tipo_servicio: "mototaxi", origen: CALI, destino: CALI_DEST })).body.success).toBe(
      false,
    );
    const ok = await create({ usuario_id: passenger.id, tipo_servicio: "motocicleta", origen: CALI, destino: CALI_DEST });
    expect(ok.status).toBe(200);
    expect(ok.body.trip.tipo_servicio).toBe("motocicleta");
  });

  it("ignores drivers whose position went stale, who are offline, or whose documents expired", async () => {
    const BARRANQUILLA = { direccion: "Centro, Barranquilla", latitud: 10.9685, longitud: -74.7813 };
    const DEST = { direccion: "Malecón", latitud: 10.9939, longitud: -74.7926 };
    const passenger = await createPassenger(app);
    await createDriver(app, { at: BARRANQUILLA, expired: ["soat"], online: false });
    await createDriver(app, { at: BARRANQUILLA, online: false });
    const stale = await createDriver(app, { at: BARRANQUILLA });
    clock.advance(61_000);
    expect((await create({ usuario_id: passenger.id, tipo_servicio: "auto", origen: BARRANQUILLA, destino: DEST })).body.success).toBe(
      false,
    );
    // The same driver reporting again is found.
    await app.legacy("POST", "/conductor/update_location.php", { conductor_id: stale.id, ...BARRANQUILLA });
    expect((await create({ usuario_id: passenger.id, tipo_servicio: "auto", origen: BARRANQUILLA, destino: DEST })).status).toBe(200);
  });

  it("refuses a second active trip for the same passenger", async () => {
    const passenger = await createPassenger(app);
    await createDriver(app);
    const first = await requestTrip(app, passenger.id);
    const before = await counts();
    const response = await create({ usuario_id: passenger.id, tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO });
    expect(response.status).toBe(409);
    expect(response.body.message).toBe(`Ya tienes un viaje activo (id ${first.id}, pendiente)`);
    expect(await counts()).toEqual(before);
  });

  it("creates one trip when a passenger taps twice at once", async () => {
    const passenger = await createPassenger(app);
    await createDriver(app);
    const body = { usuario_id: passenger.id, tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO };
    const responses = await Promise.all([create(body), create(body), create(body)]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await app.db.trip.count({ where: { usuario_id: passenger.id } })).toBe(1);
  });

  it("needs the JSON content type", async () => {
    const passenger = await createPassenger(app);
    const response = await app.server.fetch(
      new Request("http://test/viajes/create_trip.php", {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: JSON.stringify({ usuario_id: passenger.id, tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO }),
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ success: false, message: "La cabecera Content-Type debe ser application/json" });
    const none = await app.server.fetch(new Request("http://test/viajes/create_trip.php", { method: "POST", body: "{}" }));
    expect(none.status).toBe(400);
  });

  it.each([
    [{ usuario_id: "abc" }, 400, "El campo 'usuario_id' debe ser un número entero"],
    [{ usuario_id: undefined }, 400, "El campo 'usuario_id' es obligatorio"],
    [{ usuario_id: 9_999_999 }, 404, "No existe un usuario con id 9999999"],
    [{ tipo_servicio: "helicoptero" }, 400, "El campo 'tipo_servicio' debe ser uno de: motocicleta, auto, mototaxi"],
    [{ tipo_servicio: undefined }, 400, "El campo 'tipo_servicio' es obligatorio"],
    [{ origen: undefined }, 400, "El campo 'origen' es obligatorio"],
    [{ origen: { direccion: "x", latitud: 6.2 } }, 400, "El campo 'origen.longitud' es obligatorio"],
    [{ origen: { direccion: "x", latitud: "seis", longitud: -75.5 } }, 400, "El campo 'origen.latitud' debe ser un número"],
    [{ destino: { direccion: "x", latitud: 95, longitud: -75.5 } }, 400, "El campo 'destino.latitud' debe estar entre -90 y 90"],
    [{ destino: { direccion: "x", latitud: 6.2, longitud: -190 } }, 400, "El campo 'destino.longitud' debe estar entre -180 y 180"],
    [{ destino: { latitud: 6.25, longitud: -75.59 } }, 400, "El campo 'destino.direccion' es obligatorio"],
    [{ destino: LLERAS }, 400, "El campo 'destino' debe estar a más de 100 m del origen"],
  ])("answers %j with %i and writes nothing", async (change, status, message) => {
    const passenger = await createPassenger(app);
    const before = await counts();
    const response = await create({ usuario_id: passenger.id, tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO, ...change });
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ success: false, message });
    expect(await counts()).toEqual(before);
  });

  it("refuses a suspended passenger with 403", async () => {
    const passenger = await createPassenger(app);
    await app.db.user.update({ where: { id: passenger.id }, data: { fecha_suspension: clock.now(), motivo_suspension: "Fraude" } });
    const response = await create({ usuario_id: passenger.id, tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO });
    expect(response.status).toBe(403);
  });
});

describe("POST /user/create_trip_request.php (the older flat shape)", () => {
  const flat = (passengerId: number, fields: Record<string, unknown> = {}) =>
    app.legacy("POST", "/user/create_trip_request.php", {
      usuario_id: passengerId,
      latitud_origen: LLERAS.latitud,
      longitud_origen: LLERAS.longitud,
      latitud_destino: ESTADIO.latitud,
      longitud_destino: ESTADIO.longitud,
      tipo_servicio: "motocicleta",
      tipo_vehiculo: "moto",
      ...fields,
    });

  it("creates the same trip, describing the places by the nearest town", async () => {
    await createDriver(app, { tipo: "moto" });
    const passenger = await createPassenger(app);
    const response = await flat(passenger.id);
    expect(response.status).toBe(200);
    expect(response.body.trip).toMatchObject({
      tipo_servicio: "motocicleta",
      estado: "pendiente",
      origen: { latitud: LLERAS.latitud, longitud: LLERAS.longitud, direccion: expect.stringMatching(/^Cerca de /) },
    });
  });

  it("accepts the vehicle type alone, and refuses one that does not fit the service", async () => {
    await createDriver(app, { tipo: "mototaxi" });
    const passenger = await createPassenger(app);
    const mismatch = await flat(passenger.id, { tipo_servicio: "auto", tipo_vehiculo: "moto" });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.message).toBe("El campo 'tipo_vehiculo' no corresponde al servicio 'auto', que usa vehículos 'auto'");
    const byVehicle = await flat(passenger.id, { tipo_servicio: undefined, tipo_vehiculo: "mototaxi" });
    expect(byVehicle.status).toBe(200);
    expect(byVehicle.body.trip.tipo_servicio).toBe("mototaxi");
  });

  it("takes pingo's generic 'viaje' as no service named, and answers any other word as it always has", async () => {
    await createDriver(app, { tipo: "moto" });
    const passenger = await createPassenger(app);
    const wrong = await flat(passenger.id, { tipo_servicio: "helicoptero" });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ success: false, message: "El campo 'tipo_servicio' debe ser uno de: motocicleta, auto, mototaxi" });
    const truck = await flat(passenger.id, { tipo_vehiculo: "camion" });
    expect(truck.body).toEqual({ success: false, message: "El campo 'tipo_vehiculo' debe ser uno de: moto, auto, mototaxi" });
    const generic = await flat(passenger.id, { tipo_servicio: "viaje" });
    expect(generic.status, JSON.stringify(generic.body)).toBe(200);
    expect(generic.body.trip.tipo_servicio).toBe("motocicleta");
  });

  it("names the flat fields in its errors", async () => {
    const passenger = await createPassenger(app);
    expect((await flat(passenger.id, { latitud_origen: undefined })).body.message).toBe("El campo 'latitud_origen' es obligatorio");
    expect((await flat(passenger.id, { longitud_destino: 500 })).body.message).toBe(
      "El campo 'longitud_destino' debe estar entre -180 y 180",
    );
    expect((await flat(passenger.id, { tipo_servicio: undefined, tipo_vehiculo: undefined })).body.message).toBe(
      "El campo 'tipo_servicio' es obligatorio",
    );
  });
});

describe("fare estimates over GraphQL", () => {
  it("prices a trip before it exists, with the breakdown", async () => {
    await createDriver(app, { tipo: "moto" });
    const { data } = await app.graphql(
      `query ($input: CreateTripInput!) {
        fareEstimate(input: $input) {
          ... on EstimacionTarifa {
            precio_estimado tarifa_base por_distancia por_tiempo recargo multiplicador_demanda distancia_km duracion_estimada_minutos
            conductores_disponibles tipo_servicio
          }
        }
      }`,
      { input: { tipo_servicio: "motocicleta", origen: LLERAS, destino: ESTADIO } },
    );
    const fare = data.fareEstimate;
    expect(fare.tipo_servicio).toBe("motocicleta");
    expect(fare.tarifa_base).toBe(4000);
    expect(fare.por_distancia).toBe(Math.round(fare.distancia_km * 2000));
    expect(fare.por_tiempo).toBe(fare.duracion_estimada_minutos * 250);
    expect(fare.recargo).toBeNull();
    expect(fare.conductores_disponibles).toBeGreaterThan(0);
    expect(fare.precio_estimado).toBe(
      Math.round(
        (Math.max(6000, 4000 + fare.distancia_km * 2000 + fare.duracion_estimada_minutos * 250) * fare.multiplicador_demanda) / 100,
      ) * 100,
    );
  });

  it("rises with the pending requests within 5 km against the drivers there, and only those", async () => {
    // Bucaramanga, where no other test puts anyone.
    const PLAZA = { direccion: "Parque Santander, Bucaramanga", latitud: 7.1193, longitud: -73.1227 };
    for (let i = 0; i < 2; i++) await createDriver(app, { tipo: "mototaxi", at: PLAZA });
    const pendingAt = async (km: number) =>
      requestTrip(app, (await createPassenger(app)).id, {
        tipo_servicio: "mototaxi",
        origen: { ...northOf(PLAZA, km), direccion: `A ${km} km` },
        destino: PLAZA,
      });
    await pendingAt(1);
    await pendingAt(4.5);
    // Beyond the 5 km (no driver is near enough to request it there): not counted.
    const far = northOf(PLAZA, 5.5);
    await app.db.trip.create({
      data: {
        usuario_id: (await createPassenger(app)).id,
        tipo_servicio: "mototaxi",
        origen_direccion: "Lejos",
        origen_latitud: far.latitud,
        origen_longitud: far.longitud,
        destino_direccion: "Plaza",
        destino_latitud: PLAZA.latitud,
        destino_longitud: PLAZA.longitud,
        precio_estimado: 9000,
        distancia_km: 5,
        duracion_estimada_minutos: 12,
      },
    });
    const { data } = await app.graphql(
      `query ($input: CreateTripInput!) {
        fareEstimate(input: $input) { ... on EstimacionTarifa { multiplicador_demanda conductores_disponibles } }
      }`,
      { input: { tipo_servicio: "mototaxi", origen: PLAZA, destino: northOf(PLAZA, 3) } },
    );
    // Two pending within reach plus the one being priced, for two drivers.
    expect(data.fareEstimate).toEqual({ conductores_disponibles: 2, multiplicador_demanda: demandMultiplier(3, 2) });
    expect(demandMultiplier(3, 2)).not.toBe(demandMultiplier(4, 2));
  });

  it("counts the pending requests only up to where the multiplier reaches its cap", async () => {
    // Pereira, where no other test puts anyone: one driver, so the cap is reached at 3 requests.
    const PLAZA = { direccion: "Plaza de Bolívar, Pereira", latitud: 4.8143, longitud: -75.6946 };
    await createDriver(app, { tipo: "moto", at: PLAZA });
    for (let km = 0.5; km <= 2.5; km += 0.5) {
      await requestTrip(app, (await createPassenger(app)).id, {
        tipo_servicio: "motocicleta",
        origen: { ...northOf(PLAZA, km), direccion: `A ${km} km` },
        destino: PLAZA,
      });
    }
    const count = (limit: number) => countPendingTripsNear(app.db, PLAZA, "motocicleta", limit);
    expect(await count(10)).toBe(5);
    expect(await count(demandCountLimit(1))).toBe(3);
    const { data } = await app.graphql(
      `query ($input: CreateTripInput!) { fareEstimate(input: $input) { ... on EstimacionTarifa { multiplicador_demanda } } }`,
      { input: { tipo_servicio: "motocicleta", origen: PLAZA, destino: northOf(PLAZA, 3) } },
    );
    expect(data.fareEstimate.multiplicador_demanda).toBe(demandMultiplier(6, 1));
  });
});
