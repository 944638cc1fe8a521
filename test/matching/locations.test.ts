import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, SIGN_IN_REQUIRED, type TestApp } from "../support/app.js";
import { post } from "../support/fixtures.js";
import { FixedClock } from "../support/clock.js";
import { DEMO_PASSWORDS } from "../../src/demo/demo-data.js";
import { ESTADIO, LLERAS, createDriver, createPassenger, northOf, requestTrip, tripIn } from "../support/trips.js";

let app: TestApp;
const clock = new FixedClock("2026-03-10T15:00:00Z");
beforeAll(async () => {
  app = await createTestApp({ clock });
});
afterAll(() => app.close());

const locate = (body: Record<string, unknown>) => post(app, "/conductor/update_location.php", body);
const periods = (driverId: number) =>
  app.db.onlinePeriod.findMany({ where: { conductor_id: driverId }, orderBy: { id: "asc" }, select: { inicio: true, fin: true } });

describe("POST /conductor/update_location.php", () => {
  it("stores the position and availability, and keeps online periods", async () => {
    const driver = await createDriver(app, { online: false });
    const online = await locate({ conductor_id: driver.id, latitud: 6.21, longitud: -75.57, disponibilidad: 1 });
    expect(online.status).toBe(200);
    expect(online.body).toEqual({
      success: true,
      message: "Ubicación actualizada",
      ubicacion: {
        conductor_id: driver.id,
        latitud: 6.21,
        longitud: -75.57,
        disponibilidad: 1,
        posicion_en: clock.now().toISOString(),
        viaje_activo_id: null,
      },
    });
    clock.advance(10_000);
    // Without disponibilidad the driver stays as they were.
    expect((await locate({ conductor_id: driver.id, latitud: "6.211", longitud: "-75.571" })).body.ubicacion.disponibilidad).toBe(1);
    const start = clock.now();
    clock.advance(3_600_000);
    expect(
      (await locate({ conductor_id: driver.id, latitud: 6.212, longitud: -75.572, disponibilidad: 0 })).body.ubicacion.disponibilidad,
    ).toBe(0);
    expect(await periods(driver.id)).toEqual([{ inicio: new Date(start.getTime() - 10_000), fin: clock.now() }]);
    const row = await app.db.driverStatus.findUniqueOrThrow({ where: { conductor_id: driver.id } });
    expect(row).toMatchObject({ disponible: false, latitud: 6.212, longitud: -75.572, posicion_en: clock.now() });
  });

  it("keeps a driver busy with a trip unavailable, and reports the trip", async () => {
    const { driver, trip } = await tripIn(app, "aceptado");
    const response = await locate({ conductor_id: driver.id, latitud: 6.22, longitud: -75.57, disponibilidad: 1 });
    expect(response.body.ubicacion).toMatchObject({ disponibilidad: 0, viaje_activo_id: trip.id });
  });

  it("will not put online a driver whose SOAT or technical inspection expired, naming the document", async () => {
    for (const [document, message] of [
      ["soat", /^El SOAT está vencido desde \d{4}-\d\d-\d\d$/],
      ["tecnomecanica", /^La revisión técnico-mecánica está vencida desde/],
      ["licencia", /^La licencia de conducción está vencida desde/],
    ] as const) {
      const driver = await createDriver(app, { online: false, expired: [document] });
      const response = await locate({ conductor_id: driver.id, ...LLERAS, disponibilidad: 1 });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(message);
      expect(await app.db.driverStatus.findUnique({ where: { conductor_id: driver.id } })).toBeNull();
      // Going offline is always allowed.
      expect((await locate({ conductor_id: driver.id, ...LLERAS, disponibilidad: 0 })).status).toBe(200);
    }
  });

  it.each([
    [{ conductor_id: undefined, latitud: 6.2, longitud: -75.5 }, 400, "El campo 'conductor_id' es obligatorio"],
    [{ conductor_id: "yo", latitud: 6.2, longitud: -75.5 }, 400, "El campo 'conductor_id' debe ser un número entero"],
    [{ conductor_id: 999999, latitud: 6.2, longitud: -75.5 }, 404, "No existe un conductor con id 999999"],
    [{ latitud: 91, longitud: -75.5 }, 400, "El campo 'latitud' debe estar entre -90 y 90"],
    [{ latitud: 6.2 }, 400, "El campo 'longitud' es obligatorio"],
    [{ latitud: 6.2, longitud: -75.5, disponibilidad: 2 }, 400, "El campo 'disponibilidad' debe ser 1 (en línea) o 0 (fuera de línea)"],
  ])("answers %j with %i", async (body, code, message) => {
    const driver = await createDriver(app, { online: false });
    const response = await locate({ conductor_id: driver.id, ...body });
    expect(response.status).toBe(code);
    expect(response.body).toEqual({ success: false, message });
  });

  it("refuses users who are not drivers", async () => {
    const passenger = await createPassenger(app);
    expect((await locate({ conductor_id: passenger.id, ...LLERAS })).status).toBe(404);
  });
});

describe("trip requests for a driver", () => {
  const REQUESTS = `{
    tripRequests { __typename ... on QueryTripRequestsSuccess { data { id tipo_servicio } } ... on Error { code message } }
  }`;
  const BUCARAMANGA = { direccion: "Parque Santander", latitud: 7.1193, longitud: -73.1227 };
  const DEST = { direccion: "Cabecera", latitud: 7.104, longitud: -73.1082 };

  it("lists pending requests within 5 km for the driver's vehicle and records them as shown", async () => {
    const moto = await createDriver(app, { tipo: "moto", at: BUCARAMANGA });
    const car = await createDriver(app, { tipo: "auto", at: northOf(BUCARAMANGA, 1) });
    const near = await requestTrip(app, (await createPassenger(app)).id, {
      tipo_servicio: "motocicleta",
      origen: { ...BUCARAMANGA, ...northOf(BUCARAMANGA, 4.9) },
      destino: DEST,
    });
    await requestTrip(app, (await createPassenger(app)).id, { tipo_servicio: "auto", origen: BUCARAMANGA, destino: DEST });
    // A moto driver 6 km away sees nothing of these.
    const far = await createDriver(app, { tipo: "moto", at: northOf(BUCARAMANGA, -6) });

    const seen = await app.graphql(REQUESTS, {}, moto.id);
    expect(seen.data.tripRequests.data).toEqual([{ id: near.id, tipo_servicio: "motocicleta" }]);
    expect(await app.db.tripOffer.count({ where: { conductor_id: moto.id, viaje_id: near.id } })).toBe(1);
    expect((await app.graphql(REQUESTS, {}, far.id)).data.tripRequests.data).toEqual([]);
    expect((await app.graphql(REQUESTS, {}, car.id)).data.tripRequests.data.map((t: { tipo_servicio: string }) => t.tipo_servicio)).toEqual(
      ["auto"],
    );
  });

  it("records a rejection with its time, once", async () => {
    const driver = await createDriver(app, { tipo: "auto" });
    const trip = await requestTrip(app, (await createPassenger(app)).id);
    clock.advance(12_000);
    const REJECT = `mutation ($id: Int!) { rejectTripRequest(trip_id: $id) { __typename ... on Error { message } } }`;
    expect((await app.graphql(REJECT, { id: trip.id }, driver.id)).data.rejectTripRequest.__typename).toBe("Viaje");
    const offer = await app.db.tripOffer.findUniqueOrThrow({
      where: { viaje_id_conductor_id: { viaje_id: trip.id, conductor_id: driver.id } },
    });
    expect(offer.respuesta).toBe("rechazada");
    expect(offer.respondida_en!.getTime() - offer.mostrada_en.getTime()).toBe(12_000);
    expect((await app.graphql(REJECT, { id: trip.id }, driver.id)).data.rejectTripRequest.message).toBe(
      "Ya respondiste esta solicitud (rechazada)",
    );
  });

  it("is for online drivers with a fresh position", async () => {
    const driver = await createDriver(app, { online: false });
    const offline = await app.graphql(REQUESTS, {}, driver.id);
    expect(offline.data.tripRequests).toMatchObject({ code: "INVALID_STATE" });
  });
});

describe("pricing rates", () => {
  it("are stored with the defaults, shown to the signed-in, and only administrators change them", async () => {
    const RATES = `{
      pricingRates {
        __typename
        ... on QueryPricingRatesSuccess {
          data { tipo_vehiculo tarifa_base precio_km precio_minuto tarifa_minima recargo_pico recargo_nocturno }
        }
      }
    }`;
    expect(await app.graphql(RATES)).toMatchObject(SIGN_IN_REQUIRED);
    const passenger = await createPassenger(app);
    const { data } = await app.graphql(RATES, {}, passenger.id);
    expect(data.pricingRates.data).toEqual([
      {
        tipo_vehiculo: "auto",
        tarifa_base: 6000,
        precio_km: 3000,
        precio_minuto: 400,
        tarifa_minima: 9000,
        recargo_pico: 0.2,
        recargo_nocturno: 0.25,
      },
      {
        tipo_vehiculo: "moto",
        tarifa_base: 4000,
        precio_km: 2000,
        precio_minuto: 250,
        tarifa_minima: 6000,
        recargo_pico: 0.15,
        recargo_nocturno: 0.2,
      },
      {
        tipo_vehiculo: "mototaxi",
        tarifa_base: 5500,
        precio_km: 2500,
        precio_minuto: 350,
        tarifa_minima: 8000,
        recargo_pico: 0.18,
        recargo_nocturno: 0.22,
      },
    ]);

    const UPDATE = `mutation ($input: PricingRateInput!) {
      updatePricingRate(input: $input) { __typename ... on Tarifa { tarifa_base tarifa_minima } ... on Error { code message } }
    }`;
    const refused = await app.graphql(UPDATE, { input: { tipo_vehiculo: "auto", tarifa_base: 1 } }, passenger.id);
    expect(refused.data.updatePricingRate).toMatchObject({ __typename: "ForbiddenError", code: "FORBIDDEN" });

    const admin = await app.db.user.create({
      data: {
        email: "tarifas@example.com",
        nombre: "A",
        apellido: "B",
        telefono: "3000000",
        password_hash: DEMO_PASSWORDS.admin,
        tipo_usuario: "admin",
      },
    });
    const bad = await app.graphql(UPDATE, { input: { tipo_vehiculo: "auto", recargo_pico: 1.5 } }, admin.id);
    expect(bad.data.updatePricingRate).toMatchObject({ message: "El campo 'recargo_pico' debe estar entre 0 y 1 (0 % a 100 %)" });
    const changed = await app.graphql(UPDATE, { input: { tipo_vehiculo: "auto", tarifa_base: 7000 } }, admin.id);
    expect(changed.data.updatePricingRate).toEqual({ __typename: "Tarifa", tarifa_base: 7000, tarifa_minima: 9000 });

    await createDriver(app);
    const estimate = await app.graphql(
      `query ($input: CreateTripInput!) { fareEstimate(input: $input) { ... on EstimacionTarifa { tarifa_base } } }`,
      { input: { tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO } },
    );
    expect(estimate.data.fareEstimate.tarifa_base).toBe(7000);
  });
});
