import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_UPCOMING } from "../../src/domain/booking/reservations.js";
import { REPLAYED_HEADER } from "../../src/http/idempotency.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { newAdmin } from "../support/drivers.js";
import { createDriver, createPassenger, ESTADIO, LLERAS, northOf, requestTrip } from "../support/trips.js";

// 10:00 on a Tuesday in Bogotá.
const START = "2026-03-10T15:00:00.000Z";
const clock = new FixedClock(START);
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ clock });
});
afterAll(() => app.close());

const RESERVATION = `id estado fecha_programada tipo_servicio metodo_pago precio_estimado distancia_km conductor_id viaje_id
  motivo_cancelacion cancelada_por origen { direccion latitud longitud } destino { direccion }`;
const BOOK = `mutation ($input: ReservaInput!) {
  bookTrip(input: $input) { __typename ... on Reserva { ${RESERVATION} } ... on Error { code message } }
}`;
const TRIP = { tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO };
// 23:00 in Bogotá, two days ahead: the night surcharge.
const NIGHT = "2026-03-12T23:00";
const NIGHT_UTC = "2026-03-13T04:00:00.000Z";

const book = async (passengerId: number, fields: Record<string, unknown> = {}) =>
  (await app.graphql(BOOK, { input: { ...TRIP, fecha_programada: NIGHT, ...fields } }, passengerId)).data.bookTrip;
const gql = async (query: string, variables: Record<string, unknown>, callerId?: number) => {
  const { data } = await app.graphql(query, variables, callerId);
  return Object.values(data)[0] as any;
};
const CANCEL = `mutation ($id: Int!, $motivo: String) {
  cancelReservation(reserva_id: $id, motivo: $motivo) { __typename ... on Reserva { estado cancelada_por motivo_cancelacion } ... on Error { code message } }
}`;
const COMMIT = `mutation ($id: Int!) { commitToReservation(reserva_id: $id) { __typename ... on Reserva { conductor_id } ... on Error { code message } } }`;
const WITHDRAW = `mutation ($id: Int!) { withdrawFromReservation(reserva_id: $id) { __typename ... on Error { code message } } }`;
const OPEN = `query ($lat: Float, $lng: Float) {
  openReservations(latitud: $lat, longitud: $lng) {
    __typename
    ... on QueryOpenReservationsSuccess { data { id fecha_programada precio_estimado zona_origen { latitud longitud } distancia_conductor_km } }
    ... on Error { code message }
  }
}`;
const VIEW = `query ($id: Int!) { reservation(reserva_id: $id) { __typename ... on Reserva { id origen { direccion } } ... on Error { code } } }`;

const told = (userId: number, titulo: string) => app.db.notification.count({ where: { usuario_id: userId, titulo } });
const mailed = (email: string, asunto: string) =>
  app.db.outboxMail.count({ where: { destinatario: email, asunto: { startsWith: asunto } } });

/** A driver online at `at` now (the clock may have moved since they were made). */
async function online(driverId: number, at: { latitud: number; longitud: number } = LLERAS) {
  const data = await gql(
    `mutation ($lat: Float!, $lng: Float!) { updateDriverLocation(latitud: $lat, longitud: $lng, disponibilidad: 1) { __typename } }`,
    { lat: at.latitud, lng: at.longitud },
    driverId,
  );
  expect(data.__typename).toBe("EstadoConductor");
}

describe("booking a trip ahead", () => {
  it("prices it for its pickup time, with that time's surcharge and no demand, as a quote for that time says", async () => {
    clock.set(START);
    const passenger = await createPassenger(app);
    const quoted = await gql(
      `query ($input: CreateTripInput!, $at: String) {
        fareEstimate(input: $input, fecha_programada: $at) { ... on EstimacionTarifa { cotizacion_id precio_estimado recargo } }
      }`,
      { input: TRIP, at: NIGHT },
      passenger.id,
    );
    expect(quoted.recargo).toBe("nocturno");
    const booked = await book(passenger.id);
    expect(booked).toMatchObject({
      __typename: "Reserva",
      estado: "programada",
      fecha_programada: NIGHT_UTC,
      precio_estimado: quoted.precio_estimado,
      metodo_pago: "efectivo",
      conductor_id: null,
      viaje_id: null,
    });
    const withQuote = await book(passenger.id, { cotizacion_id: quoted.cotizacion_id });
    expect(withQuote.precio_estimado).toBe(quoted.precio_estimado);
    const again = await book(passenger.id, { cotizacion_id: quoted.cotizacion_id });
    expect(again.message).toBe(
      `El campo 'cotizacion_id' ya se usó para la reserva ${withQuote.id}; pide otra cotización o pide el viaje sin ella`,
    );
    const forNow = await gql(
      `query ($input: CreateTripInput!) { fareEstimate(input: $input) { ... on EstimacionTarifa { cotizacion_id } } }`,
      { input: TRIP },
      passenger.id,
    );
    expect((await book(passenger.id, { cotizacion_id: forNow.cotizacion_id })).message).toBe(
      "El campo 'cotizacion_id' es para un viaje ahora, no programado",
    );
  });

  it("refuses a pickup too soon, too far ahead or missing, and more than the upcoming limit", async () => {
    clock.set(START);
    const passenger = await createPassenger(app);
    expect((await book(passenger.id, { fecha_programada: "2026-03-10T10:29" })).message).toBe(
      "El campo 'fecha_programada' debe ser al menos 30 minutos después de ahora",
    );
    expect((await book(passenger.id, { fecha_programada: "2026-03-17T10:01" })).message).toBe(
      "El campo 'fecha_programada' no puede ser más de 7 días después de ahora",
    );
    const { errors } = await app.graphql(BOOK, { input: TRIP }, passenger.id);
    expect(errors?.[0]?.message).toMatch(/fecha_programada/);
    for (let i = 0; i < MAX_UPCOMING; i++) expect((await book(passenger.id)).__typename).toBe("Reserva");
    expect((await book(passenger.id)).code).toBe("CONFLICT");
    expect(await app.db.reservation.count({ where: { usuario_id: passenger.id } })).toBe(MAX_UPCOMING);
  });

  it("is seen by its passenger, changed (re-quoted, its driver let go) and cancelled; nobody else sees it", async () => {
    clock.set(START);
    const passenger = await createPassenger(app);
    const stranger = await createPassenger(app);
    const booked = await book(passenger.id);
    expect((await gql(VIEW, { id: booked.id }, stranger.id)).code).toBe("FORBIDDEN");
    expect((await gql(`query { myReservations { ... on QueryMyReservationsSuccess { data { id } } } }`, {}, passenger.id)).data).toEqual([
      { id: booked.id },
    ]);

    const driver = await createDriver(app);
    expect((await gql(COMMIT, { id: booked.id }, driver.id)).conductor_id).toBe(driver.id);
    // 10:00 the next morning: no surcharge, and the driver who took it is told it is no longer theirs.
    const changed = await gql(
      `mutation ($id: Int!) {
        changeReservation(reserva_id: $id, input: { fecha_programada: "2026-03-11T10:00" }) {
          ... on Reserva { fecha_programada precio_estimado conductor_id } ... on Error { code message }
        }
      }`,
      { id: booked.id },
      passenger.id,
    );
    expect(changed).toMatchObject({ fecha_programada: "2026-03-11T15:00:00.000Z", conductor_id: null });
    expect(changed.precio_estimado).toBeLessThan(booked.precio_estimado);
    expect(await told(driver.id, `Reserva ${booked.id}: ya no es tuya`)).toBe(1);

    expect(await gql(CANCEL, { id: booked.id }, passenger.id)).toEqual({
      __typename: "Reserva",
      estado: "cancelada",
      cancelada_por: "pasajero",
      motivo_cancelacion: null,
    });
    expect((await gql(CANCEL, { id: booked.id }, passenger.id)).code).toBe("INVALID_STATE");
  });

  it("is cancelled by an administrator only with a reason, audited, and its passenger told", async () => {
    clock.set(START);
    const passenger = await createPassenger(app);
    const admin = await newAdmin(app);
    const booked = await book(passenger.id);
    expect((await gql(CANCEL, { id: booked.id }, admin.id)).message).toBe(
      "El campo 'motivo' es obligatorio: di por qué cancelas la reserva",
    );
    const cancelled = await gql(CANCEL, { id: booked.id, motivo: "Vía cerrada por obras" }, admin.id);
    expect(cancelled).toMatchObject({ estado: "cancelada", cancelada_por: "admin", motivo_cancelacion: "Vía cerrada por obras" });
    const entry = await app.db.auditEntry.findFirst({ where: { accion: "cancelar_reserva", objetivo_id: booked.id } });
    expect(entry?.admin_id).toBe(admin.id);
    expect(await told(passenger.id, "Tu viaje reservado fue cancelado")).toBe(1);
    expect(await mailed(passenger.email, "Tu viaje reservado fue cancelado")).toBe(1);
  });
});

describe("a retried booking or commitment", () => {
  /** The same GraphQL request sent twice with one Idempotency-Key, as an app retrying after a lost answer. */
  async function twice(query: string, variables: Record<string, unknown>, callerId: number) {
    const headers = { "content-type": "application/json", "idempotency-key": randomUUID(), ...(await app.bearer(callerId)) };
    const send = async () => {
      const response = await app.server.fetch(
        new Request("http://test/graphql", { method: "POST", headers, body: JSON.stringify({ query, variables }) }),
      );
      return { replayed: response.headers.get(REPLAYED_HEADER), body: await response.json() };
    };
    return [await send(), await send()];
  }

  it("is answered the first answer again and books or commits once", async () => {
    clock.set(START);
    const passenger = await createPassenger(app);
    const [booked, again] = await twice(BOOK, { input: { ...TRIP, fecha_programada: NIGHT } }, passenger.id);
    expect(booked!.body.data.bookTrip.__typename).toBe("Reserva");
    expect(again).toEqual({ replayed: "true", body: booked!.body });
    expect(await app.db.reservation.count({ where: { usuario_id: passenger.id } })).toBe(1);

    const driver = await createDriver(app);
    const [committed, retried] = await twice(COMMIT, { id: booked!.body.data.bookTrip.id }, driver.id);
    expect(committed!.body.data.commitToReservation.conductor_id).toBe(driver.id);
    expect(retried).toEqual({ replayed: "true", body: committed!.body });
    expect(await app.db.reservationCommitment.count({ where: { conductor_id: driver.id } })).toBe(1);
    expect(await told(passenger.id, "Tu viaje reservado ya tiene conductor")).toBe(1);
  });
});

describe("drivers and reservations", () => {
  it("shows drivers the area and time of the reservations near them, never the passenger or the address", async () => {
    clock.set(START);
    const passenger = await createPassenger(app);
    const booked = await book(passenger.id, { origen: { ...northOf(LLERAS, 0.4), direccion: "Calle 10 # 43-12, apto 501" } });
    const driver = await createDriver(app);
    const listed = await gql(OPEN, { lat: LLERAS.latitud, lng: LLERAS.longitud }, driver.id);
    const mine = listed.data.find((open: { id: number }) => open.id === booked.id);
    expect(mine).toMatchObject({ fecha_programada: NIGHT_UTC, precio_estimado: booked.precio_estimado });
    expect(mine.zona_origen.latitud).toBe(Math.round(booked.origen.latitud * 100) / 100);
    expect(JSON.stringify(listed)).not.toContain("apto 501");
    // Far away, it is not listed; a passenger sees no such list; before committing, the driver cannot read it whole.
    expect((await gql(OPEN, { lat: 4.711, lng: -74.0721 }, driver.id)).data.map((open: { id: number }) => open.id)).not.toContain(
      booked.id,
    );
    expect((await gql(OPEN, { lat: LLERAS.latitud, lng: LLERAS.longitud }, passenger.id)).code).toBe("FORBIDDEN");
    expect((await gql(VIEW, { id: booked.id }, driver.id)).code).toBe("FORBIDDEN");
  });

  it("lets one driver commit, tells the passenger once, and counts a late withdrawal against the driver", async () => {
    clock.set(START);
    const passenger = await createPassenger(app);
    const booked = await book(passenger.id, { fecha_programada: "2026-03-10T10:50" });
    const [first, second] = [await createDriver(app), await createDriver(app)];
    const answers = await Promise.all([gql(COMMIT, { id: booked.id }, first.id), gql(COMMIT, { id: booked.id }, second.id)]);
    expect(answers.map((answer) => answer.__typename).sort()).toEqual(["ConflictError", "Reserva"]);
    const holder = answers[0].__typename === "Reserva" ? first : second;
    expect((await gql(VIEW, { id: booked.id }, holder.id)).origen.direccion).toBe(LLERAS.direccion);
    expect(await told(passenger.id, "Tu viaje reservado ya tiene conductor")).toBe(1);
    expect(await mailed(passenger.email, "Tu viaje reservado ya tiene conductor")).toBe(1);

    // The driver took the one trip they were offered: 100 % so far.
    const asked = await requestTrip(app, (await createPassenger(app)).id);
    expect((await app.legacy("POST", "/viajes/accept_trip.php", { trip_id: asked.id, conductor_id: holder.id })).status).toBe(200);
    expect((await app.legacy("POST", "/viajes/cancel_trip.php", { trip_id: asked.id, motivo: "Prueba" })).status).toBe(200);
    // 40 minutes before the pickup: late, and 50 % since.
    expect((await gql(WITHDRAW, { id: booked.id }, holder.id)).__typename).toBe("Reserva");
    const stats = await gql(
      `query ($id: Int!) { driverStatistics(conductor_id: $id) { ... on EstadisticasConductor { tasa_aceptacion } } }`,
      {
        id: holder.id,
      },
      holder.id,
    );
    expect(stats.tasa_aceptacion).toBe(50);
    expect((await gql(COMMIT, { id: booked.id }, holder.id)).conductor_id).toBe(holder.id);
    expect(await told(passenger.id, "Tu viaje reservado ya tiene conductor")).toBe(1);
  });
});

describe("when a reservation falls due", () => {
  it("is dispatched once, offered first to the driver committed and online near the pickup, at its booked price", async () => {
    clock.set(START);
    const passenger = await createPassenger(app);
    const booked = await book(passenger.id, { fecha_programada: "2026-03-10T12:00" });
    const committed = await createDriver(app);
    const other = await createDriver(app, { at: northOf(LLERAS, 0.2) });
    await gql(COMMIT, { id: booked.id }, committed.id);

    clock.set("2026-03-10T16:45:00.000Z");
    await Promise.all([online(committed.id), online(other.id, northOf(LLERAS, 0.2))]);
    await Promise.all([app.server.nudgeBookings(), app.server.nudgeBookings()]);
    const dispatched = await app.db.reservation.findUniqueOrThrow({ where: { id: booked.id } });
    expect(dispatched.estado).toBe("despachada");
    expect(await app.db.trip.count({ where: { usuario_id: passenger.id } })).toBe(1);
    const trip = await app.db.trip.findUniqueOrThrow({ where: { id: dispatched.viaje_id! } });
    expect(trip).toMatchObject({ estado: "pendiente", precio_estimado: booked.precio_estimado, precio_cotizado: booked.precio_estimado });
    const offers = await app.db.tripOffer.findMany({ where: { viaje_id: trip.id } });
    expect(offers.map((offer) => offer.conductor_id)).toEqual([committed.id]);

    // The passenger's legacy list shows it as any trip asked for.
    const active = await app.legacy("GET", "/viajes/get_active_trips.php", { usuario_id: String(passenger.id) });
    expect(active.body.trips.map((listed: { id: number }) => listed.id)).toContain(trip.id);
    const accepted = await app.legacy("POST", "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: committed.id });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  });

  it("tells its passenger once when a driver takes it, with nobody committed beforehand", async () => {
    clock.set(START);
    const passenger = await createPassenger(app);
    const booked = await book(passenger.id, { fecha_programada: "2026-03-10T12:00" });
    clock.set("2026-03-10T16:45:00.000Z");
    const driver = await createDriver(app);
    await app.server.nudgeBookings();
    const { viaje_id } = await app.db.reservation.findUniqueOrThrow({ where: { id: booked.id } });
    expect(await told(passenger.id, "Tu viaje reservado ya tiene conductor")).toBe(0);
    const accepted = await app.legacy("POST", "/viajes/accept_trip.php", { trip_id: viaje_id, conductor_id: driver.id });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(await told(passenger.id, "Tu viaje reservado ya tiene conductor")).toBe(1);
    expect(await mailed(passenger.email, "Tu viaje reservado ya tiene conductor")).toBe(1);
  });

  it("goes to the usual waves when the committed driver is not near in time, which counts against them", async () => {
    clock.set(START);
    const passenger = await createPassenger(app);
    const booked = await book(passenger.id, { fecha_programada: "2026-03-10T12:00" });
    const committed = await createDriver(app);
    await gql(COMMIT, { id: booked.id }, committed.id);
    clock.set("2026-03-10T16:46:00.000Z");
    await app.server.nudgeBookings();
    const trip = await app.db.trip.findFirstOrThrow({ where: { usuario_id: passenger.id } });
    expect(trip.proxima_ola?.toISOString()).toBe("2026-03-10T16:46:00.000Z");
    const commitment = await app.db.reservationCommitment.findFirstOrThrow({ where: { reserva_id: booked.id } });
    expect(commitment.fin).toBe("perdido");
    expect(await told(committed.id, `Reserva ${booked.id}: ya no es tuya`)).toBe(1);
  });

  it("ends, never charged, when nobody took it by the pickup time plus the grace, and tells the passenger once", async () => {
    clock.set(START);
    const passenger = await createPassenger(app);
    const booked = await book(passenger.id, { fecha_programada: "2026-03-10T12:00" });
    clock.set("2026-03-10T16:50:00.000Z");
    await app.server.nudgeBookings();
    clock.set("2026-03-10T17:10:00.000Z");
    await Promise.all([app.server.nudgeBookings(), app.server.nudgeBookings()]);
    const ended = await app.db.reservation.findUniqueOrThrow({ where: { id: booked.id } });
    expect(ended.estado).toBe("vencida");
    const trip = await app.db.trip.findUniqueOrThrow({ where: { id: ended.viaje_id! } });
    expect(trip).toMatchObject({ estado: "cancelado", precio_final: null });
    expect(await app.db.ledgerEntry.count({ where: { viaje_id: trip.id } })).toBe(0);
    expect(await told(passenger.id, "Nadie tomó tu viaje reservado")).toBe(1);
    expect(await mailed(passenger.email, "Nadie tomó tu viaje reservado")).toBe(1);
  });

  it("reminds the passenger and the committed driver an hour and a quarter before, each once", async () => {
    clock.set(START);
    const passenger = await createPassenger(app);
    const soon = await book(passenger.id, { fecha_programada: "2026-03-10T10:40" });
    const booked = await book(passenger.id, { fecha_programada: "2026-03-10T13:00" });
    const driver = await createDriver(app);
    await gql(COMMIT, { id: booked.id }, driver.id);
    clock.set("2026-03-10T17:01:00.000Z");
    await Promise.all([app.server.nudgeBookings(), app.server.nudgeBookings()]);
    expect(await told(passenger.id, "Tu viaje reservado es en una hora")).toBe(1);
    expect(await mailed(passenger.email, "Tu viaje reservado es en una hora")).toBe(1);
    expect(await told(driver.id, "La reserva que tomaste es en una hora: conéctate cerca del punto de recogida")).toBe(1);
    clock.set("2026-03-10T17:46:00.000Z");
    await app.server.nudgeBookings();
    await app.server.nudgeBookings();
    expect(await told(passenger.id, "Tu viaje reservado es en 15 minutos")).toBe(1);
    // Booked 40 minutes ahead, the first had no hour-before reminder: only the quarter's, back then.
    const early = await app.db.reservation.findUniqueOrThrow({ where: { id: soon.id } });
    expect(early.recordatorio_1h_en?.toISOString()).toBe(START);
  });

  it("goes with the passenger's account while it is not dispatched", async () => {
    clock.set(START);
    const passenger = await createPassenger(app);
    await book(passenger.id);
    const admin = await newAdmin(app);
    expect(
      (await gql(`mutation ($id: Int!) { deleteUser(user_id: $id) { __typename } }`, { id: passenger.id }, admin.id)).__typename,
    ).not.toMatch(/Error$/);
    expect(await app.db.reservation.count({ where: { usuario_id: passenger.id } })).toBe(0);
  });
});
