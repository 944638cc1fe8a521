import type { Client } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { post } from "../support/fixtures.js";
import { connect, subscribe } from "../support/ws.js";
import { createDriver, createPassenger, northOf, requestTrip, LLERAS } from "../support/trips.js";

let app: TestApp;
let port: number;
const clients: Client[] = [];
beforeAll(async () => {
  app = await createTestApp();
  ({ port } = await app.server.start(0, "127.0.0.1"));
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await app.close();
});

const as = async (userId?: number) => {
  const client = await connect(port, userId === undefined ? {} : await app.bearer(userId));
  clients.push(client);
  return client;
};

const TRIP_UPDATED = `subscription ($id: Int!) {
  tripUpdated(trip_id: $id) { id estado conductor_id fecha_aceptacion fecha_inicio fecha_fin precio_final origen { direccion } }
}`;
const DRIVER_LOCATION = `subscription ($id: Int!) { driverLocation(trip_id: $id) { conductor_id latitud longitud fecha } }`;
const TRIP_REQUESTS = `subscription ($id: Int!) { tripRequests(conductorId: $id) { tipo viaje { id tipo_servicio estado } } }`;

describe("tripUpdated", () => {
  it("sends the full trip on every change of state to its passenger", async () => {
    const passenger = await createPassenger(app);
    const driver = await createDriver(app);
    const trip = await requestTrip(app, passenger.id);
    const updates = await subscribe(await as(passenger.id), TRIP_UPDATED, { id: trip.id });

    await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id });
    expect((await updates.next()).tripUpdated).toMatchObject({
      id: trip.id,
      estado: "aceptado",
      conductor_id: driver.id,
      origen: { direccion: LLERAS.direccion },
    });
    await app.graphql(`mutation ($id: Int!) { startRoute(trip_id: $id) { __typename } }`, { id: trip.id }, driver.id);
    expect((await updates.next()).tripUpdated.estado).toBe("en_ruta");
    await post(app, "/viajes/start_trip.php", { trip_id: trip.id });
    expect((await updates.next()).tripUpdated).toMatchObject({ estado: "en_curso", fecha_inicio: expect.any(String) });
    await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: 15000 });
    expect((await updates.next()).tripUpdated).toMatchObject({ estado: "completado", precio_final: 15000, fecha_fin: expect.any(String) });
    await updates.close();
  });

  it("is refused to people outside the trip and to anonymous callers", async () => {
    await createDriver(app);
    const trip = await requestTrip(app, (await createPassenger(app)).id);
    const stranger = await createPassenger(app);
    const refused = await subscribe(await as(stranger.id), TRIP_UPDATED, { id: trip.id });
    await expect(refused.next()).rejects.toThrow(/Solo el pasajero, el conductor o un administrador/);
    const anonymous = await subscribe(await as(), TRIP_UPDATED, { id: trip.id });
    await expect(anonymous.next()).rejects.toThrow(/Inicia sesión/);
  });
});

describe("driverLocation", () => {
  it("streams the assigned driver's positions while the trip is active", async () => {
    const passenger = await createPassenger(app);
    const driver = await createDriver(app);
    const trip = await requestTrip(app, passenger.id);
    await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id });
    const positions = await subscribe(await as(passenger.id), DRIVER_LOCATION, { id: trip.id });

    await post(app, "/conductor/update_location.php", { conductor_id: driver.id, latitud: 6.215, longitud: -75.567 });
    expect((await positions.next()).driverLocation).toMatchObject({ conductor_id: driver.id, latitud: 6.215, longitud: -75.567 });
    await post(app, "/conductor/update_location.php", { conductor_id: driver.id, latitud: 6.22, longitud: -75.568 });
    expect((await positions.next()).driverLocation).toMatchObject({ latitud: 6.22 });

    await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: 9000 });
    await post(app, "/conductor/update_location.php", { conductor_id: driver.id, latitud: 6.23, longitud: -75.57 });
    // The trip is over: the stream ends rather than staying open with nothing more to say.
    await expect(positions.next()).rejects.toThrow("subscription ended");
  });
});

describe("tripRequests", () => {
  it("offers new nearby requests to online drivers of the right vehicle, and withdraws them", async () => {
    const PEREIRA = { direccion: "Plaza de Bolívar, Pereira", latitud: 4.8133, longitud: -75.6961 };
    const DEST = { direccion: "Circunvalar", latitud: 4.8087, longitud: -75.6847 };
    const near = await createDriver(app, { tipo: "moto", at: northOf(PEREIRA, 1) });
    const other = await createDriver(app, { tipo: "moto", at: northOf(PEREIRA, 2) });
    const car = await createDriver(app, { tipo: "auto", at: PEREIRA });
    const far = await createDriver(app, { tipo: "moto", at: northOf(PEREIRA, 8) });
    const nearEvents = await subscribe(await as(near.id), TRIP_REQUESTS, { id: near.id });
    const carEvents = await subscribe(await as(car.id), TRIP_REQUESTS, { id: car.id });
    const farEvents = await subscribe(await as(far.id), TRIP_REQUESTS, { id: far.id });

    const trip = await requestTrip(app, (await createPassenger(app)).id, { tipo_servicio: "motocicleta", origen: PEREIRA, destino: DEST });
    expect((await nearEvents.next()).tripRequests).toEqual({
      tipo: "nueva",
      viaje: { id: trip.id, tipo_servicio: "motocicleta", estado: "pendiente" },
    });

    await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: other.id });
    expect((await nearEvents.next()).tripRequests).toEqual({
      tipo: "retirada",
      viaje: { id: trip.id, tipo_servicio: "motocicleta", estado: "aceptado" },
    });

    const cancelled = await requestTrip(app, (await createPassenger(app)).id, {
      tipo_servicio: "motocicleta",
      origen: PEREIRA,
      destino: DEST,
    });
    expect((await nearEvents.next()).tripRequests.tipo).toBe("nueva");
    await post(app, "/viajes/cancel_trip.php", { trip_id: cancelled.id, motivo: "Ya no" });
    expect((await nearEvents.next()).tripRequests).toMatchObject({ tipo: "retirada", viaje: { estado: "cancelado" } });

    await expect(carEvents.next(300)).rejects.toThrow(/no event/);
    await expect(farEvents.next(300)).rejects.toThrow(/no event/);
  });

  it("first sends the requests already offered to the driver and still open, as after a reconnect", async () => {
    const BUCARAMANGA = { direccion: "Parque Santander, Bucaramanga", latitud: 7.1193, longitud: -73.1227 };
    const DEST = { direccion: "Cabecera", latitud: 7.1105, longitud: -73.1085 };
    const moto = { tipo_servicio: "motocicleta" as const, origen: BUCARAMANGA, destino: DEST };
    const driver = await createDriver(app, { tipo: "moto", at: northOf(BUCARAMANGA, 1) });
    const other = await createDriver(app, { tipo: "moto", at: northOf(BUCARAMANGA, 2) });
    // Offered while the driver's phone was not listening: one still open, one taken, one cancelled, one turned down.
    const open = await requestTrip(app, (await createPassenger(app)).id, moto);
    const taken = await requestTrip(app, (await createPassenger(app)).id, moto);
    await post(app, "/viajes/accept_trip.php", { trip_id: taken.id, conductor_id: other.id });
    const cancelled = await requestTrip(app, (await createPassenger(app)).id, moto);
    await post(app, "/viajes/cancel_trip.php", { trip_id: cancelled.id, motivo: "Ya no" });
    const turnedDown = await requestTrip(app, (await createPassenger(app)).id, moto);
    const REJECT = `mutation ($id: Int!) { rejectTripRequest(trip_id: $id) { __typename } }`;
    expect((await app.graphql(REJECT, { id: turnedDown.id }, driver.id)).data.rejectTripRequest.__typename).toBe("Viaje");
    const offers = await app.db.tripOffer.findMany({ where: { conductor_id: driver.id }, select: { viaje_id: true } });
    expect(offers.map((offer) => offer.viaje_id).sort()).toEqual([open.id, taken.id, cancelled.id, turnedDown.id].sort());

    const events = await subscribe(await as(driver.id), TRIP_REQUESTS, { id: driver.id });
    expect((await events.next()).tripRequests).toEqual({
      tipo: "nueva",
      viaje: { id: open.id, tipo_servicio: "motocicleta", estado: "pendiente" },
    });
    // The next event is the next new request: nothing else was sent before it.
    const later = await requestTrip(app, (await createPassenger(app)).id, moto);
    expect((await events.next()).tripRequests).toMatchObject({ tipo: "nueva", viaje: { id: later.id } });
    await post(app, "/viajes/cancel_trip.php", { trip_id: open.id, motivo: "Ya no" });
    expect((await events.next()).tripRequests).toMatchObject({ tipo: "retirada", viaje: { id: open.id } });
  });

  it("is only for the driver it names", async () => {
    const driver = await createDriver(app);
    const other = await createDriver(app);
    const refused = await subscribe(await as(driver.id), TRIP_REQUESTS, { id: other.id });
    await expect(refused.next()).rejects.toThrow(`Solo el conductor ${other.id} o un administrador pueden ver estos datos`);
  });
});
