import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { post } from "../support/fixtures.js";
import { createDriver, createPassenger, ESTADIO, LLERAS } from "../support/trips.js";

// 10:00 on a Tuesday in Bogotá: no surcharge.
const START = "2026-03-10T15:00:00.000Z";
const clock = new FixedClock(START);
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ clock });
});
afterAll(() => app.close());

const LAURELES = { direccion: "Calle 33 # 80-10, Laureles", latitud: 6.2446, longitud: -75.5969 };
const BERRIO = { direccion: "Parque Berrío", latitud: 6.2518, longitud: -75.5636 };
const REQUEST = `mutation ($id: Int!, $destino: LugarInput, $paradas: [LugarInput!]) {
  requestTripChange(trip_id: $id, destino: $destino, paradas: $paradas) {
    __typename ... on CambioViaje { id estado precio_antes precio_despues destino { direccion } paradas { direccion } } ... on Error { code message }
  }
}`;
const ANSWER = `mutation ($id: Int!, $yes: Boolean!) {
  answerTripChange(cambio_id: $id, aceptar: $yes) { __typename ... on CambioViaje { estado } ... on Error { code message } }
}`;
const TRIP = `query ($id: Int!) {
  trip(trip_id: $id) {
    ... on Viaje {
      precio_estimado precio_cotizado destino { direccion } paradas { orden direccion }
      cambios { estado precio_antes precio_despues } historial { tipo actor_id detalles }
    }
  }
}`;

const gql = async (query: string, variables: Record<string, unknown>, callerId?: number) =>
  Object.values((await app.graphql(query, variables, callerId)).data)[0] as any;
const told = (userId: number, titulo: string) => app.db.notification.count({ where: { usuario_id: userId, titulo } });

/** A trip from Parque Lleras to the stadium, taken and under way. */
async function underWay() {
  clock.set(START);
  const driver = await createDriver(app);
  const passenger = await createPassenger(app);
  const created = await post(app, "/viajes/create_trip.php", {
    usuario_id: passenger.id,
    tipo_servicio: "auto",
    origen: LLERAS,
    destino: ESTADIO,
  });
  const trip = created.body.trip;
  expect((await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id })).status).toBe(200);
  expect((await post(app, "/viajes/start_trip.php", { trip_id: trip.id })).status).toBe(200);
  return { driver, passenger, trip };
}

describe("changing the way during the ride", () => {
  it("applies a new destination and stop, re-quoted, only once the driver accepts, and keeps it in the history", async () => {
    const { driver, passenger, trip } = await underWay();
    const asked = await gql(REQUEST, { id: trip.id, destino: BERRIO, paradas: [LAURELES] }, passenger.id);
    expect(asked).toMatchObject({ estado: "pendiente", precio_antes: trip.precio_estimado, destino: { direccion: BERRIO.direccion } });
    expect(asked.precio_despues).not.toBe(asked.precio_antes);
    expect(await told(driver.id, "El pasajero pide cambiar el viaje")).toBe(1);
    // Until the driver answers, nothing changes.
    expect((await gql(TRIP, { id: trip.id }, passenger.id)).destino.direccion).toBe(ESTADIO.direccion);
    expect((await gql(REQUEST, { id: trip.id, destino: LAURELES }, passenger.id)).code).toBe("CONFLICT");
    expect((await gql(ANSWER, { id: asked.id, yes: true }, passenger.id)).code).toBe("FORBIDDEN");

    expect(await gql(ANSWER, { id: asked.id, yes: true }, driver.id)).toEqual({ __typename: "CambioViaje", estado: "aceptado" });
    const changed = await gql(TRIP, { id: trip.id }, passenger.id);
    expect(changed).toMatchObject({
      precio_estimado: asked.precio_despues,
      precio_cotizado: asked.precio_despues,
      destino: { direccion: BERRIO.direccion },
      paradas: [{ orden: 1, direccion: LAURELES.direccion }],
      cambios: [{ estado: "aceptado", precio_antes: asked.precio_antes, precio_despues: asked.precio_despues }],
    });
    const details = JSON.stringify({ cambio_id: asked.id, precio_antes: asked.precio_antes, precio_despues: asked.precio_despues });
    expect(changed.historial).toEqual([
      { tipo: "cambio_pedido", actor_id: passenger.id, detalles: details },
      { tipo: "cambio_aceptado", actor_id: driver.id, detalles: details },
    ]);
    expect(await told(passenger.id, "El conductor aceptó tu cambio")).toBe(1);

    // The final price follows the last accepted quote, in the trip and in the ledger.
    const completed = await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: asked.precio_despues + 30_000 });
    expect(completed.body.trip.precio_final).toBe(asked.precio_despues);
    const lines = await app.db.ledgerLine.findMany({ where: { asiento: { viaje_id: trip.id } } });
    expect(lines.reduce((sum, line) => sum + line.monto, 0)).toBe(0);
    expect(lines.find((line) => line.concepto === "efectivo_cobrado")?.monto).toBe(-asked.precio_despues);
  });

  it("changes nothing when the driver refuses, or does not answer within CHANGE_ANSWER_S, and tells the passenger", async () => {
    const { driver, passenger, trip } = await underWay();
    const refused = await gql(REQUEST, { id: trip.id, destino: BERRIO }, passenger.id);
    expect((await gql(ANSWER, { id: refused.id, yes: false }, driver.id)).estado).toBe("rechazado");
    expect(await told(passenger.id, "El conductor no aceptó tu cambio")).toBe(1);

    const unanswered = await gql(REQUEST, { id: trip.id, destino: BERRIO }, passenger.id);
    clock.advance(30_000);
    expect((await gql(ANSWER, { id: unanswered.id, yes: true }, driver.id)).message).toBe(
      `El cambio ${unanswered.id} ya no espera respuesta (venció)`,
    );
    await Promise.all([app.server.nudgeBookings(), app.server.nudgeBookings()]);
    expect(await told(passenger.id, "Tu cambio no se aplicó")).toBe(1);
    const after = await gql(TRIP, { id: trip.id }, passenger.id);
    expect(after).toMatchObject({ destino: { direccion: ESTADIO.direccion }, precio_estimado: trip.precio_estimado, paradas: [] });
    expect(after.cambios.map((change: { estado: string }) => change.estado)).toEqual(["vencido", "rechazado"]);
    expect(after.historial.map((event: { tipo: string }) => event.tipo)).toEqual([
      "cambio_pedido",
      "cambio_rechazado",
      "cambio_pedido",
      "cambio_vencido",
    ]);
  });

  it("waits one at a time, also when two are asked at once", async () => {
    const { passenger, trip } = await underWay();
    const answers = await Promise.all([
      gql(REQUEST, { id: trip.id, destino: BERRIO }, passenger.id),
      gql(REQUEST, { id: trip.id, destino: LAURELES }, passenger.id),
    ]);
    expect(answers.map((answer) => answer.__typename).sort()).toEqual(["CambioViaje", "ConflictError"]);
    expect(await app.db.tripChange.count({ where: { viaje_id: trip.id } })).toBe(1);
  });

  it("is asked only by the passenger of a trip under way, with something to change", async () => {
    const { driver, passenger, trip } = await underWay();
    expect((await gql(REQUEST, { id: trip.id, destino: BERRIO }, driver.id)).code).toBe("FORBIDDEN");
    expect((await gql(REQUEST, { id: trip.id, destino: ESTADIO }, passenger.id)).message).toBe(
      "No cambia nada: envía otro destino u otras paradas",
    );
    expect((await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: 20_000 })).status).toBe(200);
    expect((await gql(REQUEST, { id: trip.id, destino: BERRIO }, passenger.id)).code).toBe("INVALID_STATE");
  });
});
