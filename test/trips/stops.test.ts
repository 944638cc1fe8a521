import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_STOPS } from "../../src/domain/booking/request.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { post } from "../support/fixtures.js";
import { sharedLink } from "../support/shares.js";
import { createDriver, createPassenger, ESTADIO, LLERAS, northOf } from "../support/trips.js";

// 10:00 on a Tuesday in Bogotá: no surcharge.
const START = "2026-03-10T15:00:00.000Z";
const clock = new FixedClock(START);
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ clock });
});
afterAll(() => app.close());

const LAURELES = { direccion: "Calle 33 # 80-10, Laureles", latitud: 6.2446, longitud: -75.5969 };
const POBLADO = { direccion: "Parque El Poblado", latitud: 6.2103, longitud: -75.5707 };
const TRIP = { tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO };

const QUOTE = `query ($input: CreateTripInput!) {
  fareEstimate(input: $input) {
    ... on EstimacionTarifa { cotizacion_id precio_estimado distancia_km duracion_estimada_minutos } ... on Error { code message }
  }
}`;
const CREATE = `mutation ($input: CreateTripInput!) {
  createTrip(input: $input) {
    __typename ... on Viaje { id precio_estimado distancia_km paradas { orden direccion latitud llegada_en salida_en } }
    ... on Error { code message }
  }
}`;
const MARK = (what: "arriveAtStop" | "leaveStop") => `mutation ($id: Int!, $orden: Int!) {
  ${what}(trip_id: $id, orden: $orden) { __typename ... on Viaje { paradas { orden llegada_en salida_en } } ... on Error { code message } }
}`;

const gql = async (query: string, variables: Record<string, unknown>, callerId?: number) =>
  Object.values((await app.graphql(query, variables, callerId)).data)[0] as any;
const quote = (callerId: number | undefined, input: Record<string, unknown>) => gql(QUOTE, { input: { ...TRIP, ...input } }, callerId);

/** A trip with stops, taken by a driver near the pickup and started. */
async function underWay(input: Record<string, unknown>) {
  clock.set(START);
  const driver = await createDriver(app);
  const passenger = await createPassenger(app);
  const trip = await gql(CREATE, { input: { ...TRIP, ...input } }, passenger.id);
  expect(trip.__typename, JSON.stringify(trip)).toBe("Viaje");
  expect((await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id })).status).toBe(200);
  expect((await post(app, "/viajes/start_trip.php", { trip_id: trip.id })).status).toBe(200);
  return { driver, passenger, trip };
}

describe("stops on the way", () => {
  it("are routed and priced leg by leg, up to MAX_STOPS of them", async () => {
    clock.set(START);
    await createDriver(app);
    const through = await quote(undefined, { paradas: [LAURELES, POBLADO] });
    const legs = await Promise.all([
      quote(undefined, { destino: LAURELES }),
      quote(undefined, { origen: LAURELES, destino: POBLADO }),
      quote(undefined, { origen: POBLADO }),
    ]);
    expect(through.distancia_km).toBeCloseTo(
      legs.reduce((sum, leg) => sum + leg.distancia_km, 0),
      1,
    );
    expect(through.duracion_estimada_minutos).toBe(legs.reduce((sum, leg) => sum + leg.duracion_estimada_minutos, 0));
    expect(through.precio_estimado).toBeGreaterThan((await quote(undefined, {})).precio_estimado);

    const tooMany = await quote(undefined, { paradas: Array.from({ length: MAX_STOPS + 1 }, (_, i) => northOf(LLERAS, i + 1)) });
    expect(tooMany).toEqual({ code: "VALIDATION", message: `El campo 'paradas' admite como mucho ${MAX_STOPS} paradas` });
  });

  it("are kept with the trip in order, for its passenger and its driver, and a quote holds only for the same stops", async () => {
    clock.set(START);
    const driver = await createDriver(app);
    const passenger = await createPassenger(app);
    const given = await quote(passenger.id, { paradas: [LAURELES] });
    expect((await gql(CREATE, { input: { ...TRIP, cotizacion_id: given.cotizacion_id } }, passenger.id)).message).toBe(
      "El campo 'cotizacion_id' es para otras paradas",
    );
    expect((await gql(CREATE, { input: { ...TRIP, paradas: [POBLADO], cotizacion_id: given.cotizacion_id } }, passenger.id)).message).toBe(
      "El campo 'cotizacion_id' es para otras paradas",
    );
    const trip = await gql(CREATE, { input: { ...TRIP, paradas: [LAURELES], cotizacion_id: given.cotizacion_id } }, passenger.id);
    expect(trip).toMatchObject({ precio_estimado: given.precio_estimado, distancia_km: given.distancia_km });
    expect(trip.paradas).toEqual([
      { orden: 1, direccion: LAURELES.direccion, latitud: LAURELES.latitud, llegada_en: null, salida_en: null },
    ]);
    expect((await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id })).status).toBe(200);
    const seen = await gql(
      `query ($id: Int!) { trip(trip_id: $id) { ... on Viaje { paradas { direccion } } } }`,
      { id: trip.id },
      driver.id,
    );
    expect(seen.paradas).toEqual([{ direccion: LAURELES.direccion }]);
  });

  it("are reached and left in order by the trip's driver alone, each mark once", async () => {
    const { driver, passenger, trip } = await underWay({ paradas: [LAURELES, POBLADO] });
    expect((await gql(MARK("arriveAtStop"), { id: trip.id, orden: 2 }, driver.id)).message).toBe(
      "Marca la salida de la parada 1 antes de llegar a la 2",
    );
    expect((await gql(MARK("leaveStop"), { id: trip.id, orden: 1 }, driver.id)).message).toBe(
      "Marca la llegada a la parada 1 antes de salir",
    );
    expect((await gql(MARK("arriveAtStop"), { id: trip.id, orden: 3 }, driver.id)).message).toBe(
      `El campo 'orden' el viaje ${trip.id} no tiene la parada 3`,
    );
    expect((await gql(MARK("arriveAtStop"), { id: trip.id, orden: 1 }, passenger.id)).code).toBe("FORBIDDEN");
    const arrived = await gql(MARK("arriveAtStop"), { id: trip.id, orden: 1 }, driver.id);
    expect(arrived.paradas[0].llegada_en).toBe(START);
    clock.advance(60_000);
    // A retried mark keeps the first time.
    expect((await gql(MARK("arriveAtStop"), { id: trip.id, orden: 1 }, driver.id)).paradas[0].llegada_en).toBe(START);
  });

  it("charge the time waited at them on top of the quote, in the trip and in the ledger", async () => {
    clock.set(START);
    const passenger = await createPassenger(app);
    await createDriver(app);
    const given = await quote(passenger.id, { paradas: [LAURELES] });
    const driver = await createDriver(app);
    const trip = await gql(CREATE, { input: { ...TRIP, paradas: [LAURELES], cotizacion_id: given.cotizacion_id } }, passenger.id);
    expect((await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id })).status).toBe(200);
    expect((await post(app, "/viajes/start_trip.php", { trip_id: trip.id })).status).toBe(200);
    await gql(MARK("arriveAtStop"), { id: trip.id, orden: 1 }, driver.id);
    clock.advance(9 * 60_000 + 30_000);
    await gql(MARK("leaveStop"), { id: trip.id, orden: 1 }, driver.id);
    const { precio_minuto } = await app.db.pricingRate.findUniqueOrThrow({ where: { tipo_vehiculo: "auto" } });
    const most = given.precio_estimado + 10 * precio_minuto;
    const completed = await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: most + 20_000 });
    expect(completed.body.trip.precio_final).toBe(most);
    const lines = await app.db.ledgerLine.findMany({ where: { asiento: { viaje_id: trip.id } } });
    expect(lines.find((line) => line.concepto === "efectivo_cobrado")?.monto).toBe(-most);
    expect(lines.reduce((sum, line) => sum + line.monto, 0)).toBe(0);
  });

  it("are shown on the trip's share page, and left behind once visited", async () => {
    const { driver, passenger, trip } = await underWay({ paradas: [LAURELES] });
    await gql(MARK("arriveAtStop"), { id: trip.id, orden: 1 }, driver.id);
    await gql(MARK("leaveStop"), { id: trip.id, orden: 1 }, driver.id);
    const link = await sharedLink(app, passenger.id, trip.id);
    const state = await (await app.server.fetch(new Request(`http://test/seguimiento/${link.token}/estado`))).json();
    expect(state.viaje.paradas).toEqual([
      { direccion: LAURELES.direccion, latitud: LAURELES.latitud, longitud: LAURELES.longitud, visitada: true },
    ]);
  });

  it("go with a booked trip into the trip it is dispatched as", async () => {
    clock.set(START);
    const passenger = await createPassenger(app);
    const booked = await gql(
      `mutation ($input: ReservaInput!) { bookTrip(input: $input) { ... on Reserva { id paradas { direccion } } ... on Error { message } } }`,
      { input: { ...TRIP, paradas: [POBLADO], fecha_programada: "2026-03-10T12:00" } },
      passenger.id,
    );
    expect(booked.paradas).toEqual([{ direccion: POBLADO.direccion }]);
    clock.set("2026-03-10T16:45:00.000Z");
    await app.server.nudgeBookings();
    const { viaje_id } = await app.db.reservation.findUniqueOrThrow({ where: { id: booked.id } });
    expect((await app.db.tripStop.findMany({ where: { viaje_id: viaje_id! } })).map((stop) => stop.direccion)).toEqual([POBLADO.direccion]);
  });
});
