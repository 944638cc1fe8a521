import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, SIGN_IN_REQUIRED, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { ESTADIO, LLERAS, createDriver, createPassenger } from "../support/trips.js";

let app: TestApp;
const clock = new FixedClock("2026-03-10T15:00:00Z");
beforeAll(async () => {
  app = await createTestApp({ clock });
});
afterAll(() => app.close());

const TRIP = `__typename
  ... on Viaje { id estado conductor_id precio_final calificacion_conductor calificacion_usuario pasajero { id } }
  ... on Error { code message }`;

describe("the trip operations over GraphQL", () => {
  it("run a whole trip, each step acting as the caller", async () => {
    const passenger = await createPassenger(app);
    const driver = await createDriver(app);
    const as = async (userId: number, query: string, variables: Record<string, unknown> = {}) =>
      Object.values((await app.graphql(query, variables, userId)).data)[0] as Record<string, any>;

    const created = await as(passenger.id, `mutation ($input: CreateTripInput!) { createTrip(input: $input) { ${TRIP} } }`, {
      input: { tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO },
    });
    expect(created).toMatchObject({ __typename: "Viaje", estado: "pendiente", pasajero: { id: passenger.id } });
    const id = created.id;

    // A driver may look at the open request, but not at the passenger's account until they take it.
    expect(await as(driver.id, `query ($id: Int!) { trip(trip_id: $id) { ${TRIP} } }`, { id })).toMatchObject({
      id,
      estado: "pendiente",
      pasajero: null,
    });
    // Outside the legacy interface, nobody acts anonymously.
    expect(await app.graphql(`mutation ($id: Int!) { acceptTrip(trip_id: $id) { ${TRIP} } }`, { id })).toMatchObject(SIGN_IN_REQUIRED);
    expect(await as(driver.id, `mutation ($id: Int!) { acceptTrip(trip_id: $id) { ${TRIP} } }`, { id })).toMatchObject({
      estado: "aceptado",
      conductor_id: driver.id,
      pasajero: { id: passenger.id },
    });
    expect(await app.graphql(`mutation ($id: Int!) { startTrip(trip_id: $id) { ${TRIP} } }`, { id })).toMatchObject(SIGN_IN_REQUIRED);
    expect(await as(passenger.id, `mutation ($id: Int!) { startTrip(trip_id: $id) { ${TRIP} } }`, { id })).toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await as(driver.id, `mutation ($id: Int!) { startTrip(trip_id: $id) { ${TRIP} } }`, { id })).toMatchObject({
      estado: "en_curso",
    });
    expect(
      await as(driver.id, `mutation ($id: Int!) { completeTrip(trip_id: $id, precio_final: 21000) { ${TRIP} } }`, { id }),
    ).toMatchObject({ estado: "completado", precio_final: 21000 });
    expect(
      await as(driver.id, `mutation ($id: Int!) { rateDriver(input: { trip_id: $id, calificacion: 5 }) { ${TRIP} } }`, { id }),
    ).toMatchObject({ code: "FORBIDDEN" });
    expect(
      await as(passenger.id, `mutation ($id: Int!) { rateDriver(input: { trip_id: $id, calificacion: 5 }) { ${TRIP} } }`, { id }),
    ).toMatchObject({ calificacion_conductor: 5 });
    expect(
      await as(
        driver.id,
        `mutation ($id: Int!) { ratePassenger(input: { trip_id: $id, calificacion: 4, comentario: "Puntual" }) { ${TRIP} } }`,
        { id },
      ),
    ).toMatchObject({ calificacion_usuario: 4 });

    const history = await as(passenger.id, `{ myTrips(rol: pasajero, alcance: historial) { ... on QueryMyTripsSuccess { data { id } } } }`);
    expect(history.data).toEqual([{ id }]);
    const driving = await as(driver.id, `{ myTrips(rol: conductor, alcance: activos) { ... on QueryMyTripsSuccess { data { id } } } }`);
    expect(driving.data).toEqual([]);
  });

  it("name the GraphQL field in validation errors", async () => {
    const passenger = await createPassenger(app);
    const { data } = await app.graphql(
      `mutation ($input: CreateTripInput!) { createTrip(input: $input) { ... on ValidationError { field reason message } } }`,
      { input: { tipo_servicio: "auto", origen: { ...LLERAS, latitud: 120 }, destino: ESTADIO } },
      passenger.id,
    );
    expect(data.createTrip).toEqual({
      field: "origen.latitud",
      reason: "debe estar entre -90 y 90",
      message: "El campo 'origen.latitud' debe estar entre -90 y 90",
    });
  });
});
