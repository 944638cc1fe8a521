import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PIN_ATTEMPTS } from "../../src/domain/trips/start-pin.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { newAdmin } from "../support/drivers.js";
import { post } from "../support/fixtures.js";
import { createPassenger, tripIn } from "../support/trips.js";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const TRIP_PIN = `query ($id: Int!) { trip(trip_id: $id) { __typename ... on Viaje { pin_inicio } ... on Error { code } } }`;
const START = `mutation ($id: Int!, $pin: String) {
  startTrip(trip_id: $id, pin: $pin) { __typename ... on Viaje { estado } ... on Error { code message } }
}`;
const CONFIRM = `mutation ($id: Int!) {
  confirmTripStart(trip_id: $id) { __typename ... on Viaje { inicio_confirmado_en } ... on Error { code message } }
}`;
const HISTORY = `query ($id: Int!) { trip(trip_id: $id) { ... on Viaje { historial { tipo actor_id detalles } } } }`;

const pinSeenBy = async (tripId: number, callerId: number) => (await app.graphql(TRIP_PIN, { id: tripId }, callerId)).data.trip.pin_inicio;
const start = async (tripId: number, driverId: number, pin?: string) =>
  (await app.graphql(START, { id: tripId, pin }, driverId)).data.startTrip;
const history = async (tripId: number, callerId: number) => (await app.graphql(HISTORY, { id: tripId }, callerId)).data.trip.historial;
const verifyWithPin = async (userId: number) => {
  const { data } = await app.graphql(
    `mutation { updateProfile(input: { verificar_pin: true }) { ... on Usuario { verificar_pin } } }`,
    {},
    userId,
  );
  expect(data.updateProfile).toEqual({ verificar_pin: true });
};
const wrongPin = (pin: string) => String((Number(pin) + 1) % 10_000).padStart(4, "0");

describe("the start PIN", () => {
  it("is drawn when a driver accepts and shown to the passenger alone, in GraphQL and in the legacy answers", async () => {
    const { passenger, driver, trip } = await tripIn(app, "aceptado");
    const pin = await pinSeenBy(trip.id, passenger.id);
    expect(pin).toMatch(/^\d{4}$/);
    const admin = await newAdmin(app);
    const stranger = await createPassenger(app);
    expect(await pinSeenBy(trip.id, driver.id)).toBeNull();
    expect(await pinSeenBy(trip.id, admin.id)).toBeNull();
    expect((await app.graphql(TRIP_PIN, { id: trip.id }, stranger.id)).data.trip.code).toBe("FORBIDDEN");

    const asPassenger = await app.legacy(
      "GET",
      "/user/get_trip_status.php",
      { solicitud_id: String(trip.id) },
      await app.bearer(passenger.id),
    );
    expect(asPassenger.body.trip.pin_inicio).toBe(pin);
    const asDriver = await app.legacy("GET", "/viajes/get_trip.php", { trip_id: String(trip.id) }, await app.bearer(driver.id));
    expect(asDriver.status).toBe(200);
    expect(asDriver.body.trip.pin_inicio).toBeNull();
  });

  it("is not asked of a passenger who never turned it on: start_trip.php with the trip alone starts it, as the app sends it", async () => {
    const { trip } = await tripIn(app, "aceptado");
    const started = await post(app, "/viajes/start_trip.php", { trip_id: trip.id });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.trip.estado).toBe("en_curso");
  });

  it("starts the trip of a passenger who verifies with a PIN only with that PIN: a clear 400 naming pin otherwise, each attempt in the history", async () => {
    const { passenger, driver, trip } = await tripIn(app, "aceptado");
    await verifyWithPin(passenger.id);
    const pin = await pinSeenBy(trip.id, passenger.id);

    const missing = await post(app, "/viajes/start_trip.php", { trip_id: trip.id, conductor_id: driver.id });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      success: false,
      message: "El campo 'pin' es obligatorio: el pasajero inicia sus viajes con PIN; pídeselo",
    });
    const malformed = await post(app, "/viajes/start_trip.php", { trip_id: trip.id, pin: "12a4" });
    expect(malformed.body.message).toBe("El campo 'pin' debe tener 4 dígitos");
    const wrong = await post(app, "/viajes/start_trip.php", { trip_id: trip.id, pin: wrongPin(pin) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(`El campo 'pin' no es el PIN del viaje; quedan ${MAX_PIN_ATTEMPTS - 1} intentos`);
    expect((await app.db.trip.findUniqueOrThrow({ where: { id: trip.id } })).estado).toBe("aceptado");

    expect(await start(trip.id, driver.id, pin)).toEqual({ __typename: "Viaje", estado: "en_curso" });
    expect(await history(trip.id, passenger.id)).toEqual([
      { tipo: "pin_incorrecto", actor_id: null, detalles: JSON.stringify({ intento: 1 }) },
      { tipo: "pin_correcto", actor_id: driver.id, detalles: null },
    ]);
  });

  it(`after ${MAX_PIN_ATTEMPTS} wrong PINs, even at once, refuses the right one until the passenger, told, confirms the start in their app`, async () => {
    const { passenger, driver, trip } = await tripIn(app, "aceptado");
    await verifyWithPin(passenger.id);
    const pin = await pinSeenBy(trip.id, passenger.id);
    const tries = await Promise.all(Array.from({ length: MAX_PIN_ATTEMPTS + 3 }, () => start(trip.id, driver.id, wrongPin(pin))));
    expect(tries.every((answer) => answer.code === "VALIDATION")).toBe(true);
    expect((await app.db.trip.findUniqueOrThrow({ where: { id: trip.id } })).pin_intentos).toBe(MAX_PIN_ATTEMPTS);

    const locked = `El campo 'pin' ya se intentaron ${MAX_PIN_ATTEMPTS} PIN incorrectos: el viaje solo puede iniciarse cuando el pasajero confirme el inicio en su app`;
    expect((await start(trip.id, driver.id, pin)).message).toBe(locked);
    const notice = await app.db.notification.findFirst({ where: { usuario_id: passenger.id, titulo: "Confirma el inicio de tu viaje" } });
    expect(notice).not.toBeNull();

    // Only the trip's passenger confirms.
    expect((await app.graphql(CONFIRM, { id: trip.id }, driver.id)).data.confirmTripStart.code).toBe("FORBIDDEN");
    const confirmed = await app.graphql(CONFIRM, { id: trip.id }, passenger.id);
    expect(confirmed.data.confirmTripStart.inicio_confirmado_en).toEqual(expect.any(String));
    expect((await post(app, "/viajes/start_trip.php", { trip_id: trip.id })).body.trip.estado).toBe("en_curso");

    const events = (await history(trip.id, driver.id)).map((event: { tipo: string }) => event.tipo);
    expect(events).toEqual([...Array(MAX_PIN_ATTEMPTS).fill("pin_incorrecto"), "inicio_bloqueado", "inicio_confirmado"]);
  });

  it("is confirmed only on a trip that has a driver and has not started", async () => {
    const { passenger, trip } = await tripIn(app, "pendiente");
    const refused = (await app.graphql(CONFIRM, { id: trip.id }, passenger.id)).data.confirmTripStart;
    expect(refused.code).toBe("INVALID_STATE");
    expect(await app.db.tripEvent.count({ where: { viaje_id: trip.id } })).toBe(0);
  });

  it("keeps the trip's history from anyone but its passenger, its driver and administrators", async () => {
    const { trip } = await tripIn(app, "aceptado");
    const stranger = await createPassenger(app);
    expect((await app.graphql(HISTORY, { id: trip.id }, stranger.id)).data.trip).toEqual({});
  });
});
