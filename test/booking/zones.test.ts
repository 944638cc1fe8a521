import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pickupZone } from "../../src/domain/booking/zones.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { newAdmin } from "../support/drivers.js";
import { createPassenger, ESTADIO, LLERAS } from "../support/trips.js";

const at = (latitud: number, longitud: number) => pickupZone({ origen_latitud: latitud, origen_longitud: longitud });

describe("a reservation's zone", () => {
  it("is the municipality of the pickup, a department capital reaching farther than its neighbours' centres", () => {
    expect(at(ESTADIO.latitud, ESTADIO.longitud)).toBe("Medellín");
    // Parque Lleras is nearer Envigado's point than Medellín's, yet in Medellín.
    expect(at(LLERAS.latitud, LLERAS.longitud)).toBe("Medellín");
    expect(at(6.1717, -75.5866)).toBe("Envigado");
    expect(at(6.3378, -75.5563)).toBe("Bello");
    expect(at(6.1515, -75.6166)).toBe("Sabaneta");
    // Suba, in Bogotá's north, is nearer Cota's point.
    expect(at(4.74, -74.08)).toBe("Bogotá D.C.");
    expect(at(40.4168, -3.7038)).toBeNull();
  });
});

describe("the zone in the API", () => {
  const clock = new FixedClock("2026-03-10T15:00:00.000Z");
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ clock });
  });
  afterAll(() => app.close());

  it("goes with each reservation, to its passenger and in the administrators' list", async () => {
    const passenger = await createPassenger(app);
    const envigado = { direccion: "Parque de Envigado", latitud: 6.1717, longitud: -75.5866 };
    const { data } = await app.graphql(
      `mutation ($input: ReservaInput!) { bookTrip(input: $input) { ... on Reserva { id zona } ... on Error { message } } }`,
      { input: { tipo_servicio: "auto", origen: envigado, destino: ESTADIO, fecha_programada: "2026-03-11T07:30" } },
      passenger.id,
    );
    expect(data.bookTrip).toEqual({ id: expect.any(Number), zona: "Envigado" });
    const admin = await newAdmin(app);
    const listed = await app.graphql(
      `{ reservations { ... on QueryReservationsSuccess { data { id zona } } ... on Error { message } } }`,
      {},
      admin.id,
    );
    expect(listed.data.reservations.data).toContainEqual({ id: data.bookTrip.id, zona: "Envigado" });
  });
});
