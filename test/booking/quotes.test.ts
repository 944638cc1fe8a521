import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { newAdmin } from "../support/drivers.js";
import { post } from "../support/fixtures.js";
import { createDriver, createPassenger, ESTADIO, LLERAS, northOf } from "../support/trips.js";

// 10:00 on a Tuesday in Bogotá: no peak, no night.
const clock = new FixedClock("2026-03-10T15:00:00.000Z");
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ clock });
});
afterAll(() => app.close());

const QUOTE_FIELDS = `cotizacion_id vence_en fecha_programada precio_estimado tarifa_base por_distancia por_tiempo recargo por_recargo
  multiplicador_demanda distancia_km duracion_estimada_minutos puntos { latitud longitud }`;
const FARE_ESTIMATE = `query ($input: CreateTripInput!, $fecha_programada: String) {
  fareEstimate(input: $input, fecha_programada: $fecha_programada) {
    __typename ... on EstimacionTarifa { ${QUOTE_FIELDS} } ... on Error { code message }
  }
}`;
const CREATE_TRIP = `mutation ($input: CreateTripInput!) {
  createTrip(input: $input) { __typename ... on Viaje { id precio_estimado precio_cotizado distancia_km } ... on Error { code message } }
}`;
const TRIP = { tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO };

const quote = async (callerId?: number, input: Record<string, unknown> = TRIP, fecha_programada?: string) =>
  (await app.graphql(FARE_ESTIMATE, { input, fecha_programada }, callerId)).data.fareEstimate;
const createTrip = async (callerId: number, input: Record<string, unknown>) =>
  (await app.graphql(CREATE_TRIP, { input: { ...TRIP, ...input } }, callerId)).data.createTrip;
const tripsOf = (passengerId: number) => app.db.trip.count({ where: { usuario_id: passengerId } });

/** A passenger with a driver free near Parque Lleras, and the clock back at 10:00 for the positions to be fresh. */
async function passengerWithCarNearby() {
  clock.set("2026-03-10T15:00:00.000Z");
  await createDriver(app);
  return createPassenger(app);
}

describe("quotes (fareEstimate)", () => {
  it("gives a signed-in caller a quote that holds for QUOTE_TTL_S, with its breakdown, and anyone else the price alone", async () => {
    const passenger = await passengerWithCarNearby();
    const given = await quote(passenger.id);
    expect(given.__typename).toBe("EstimacionTarifa");
    expect(given.cotizacion_id).toMatch(/^cot_[A-Za-z0-9_-]{22}$/);
    expect(given.vence_en).toBe("2026-03-10T15:05:00.000Z");
    expect(given.fecha_programada).toBeNull();
    expect(given.recargo).toBeNull();
    expect(given.por_recargo).toBe(0);
    // The route itself, from the pickup to the destination.
    expect(given.puntos[0]).toEqual({ latitud: LLERAS.latitud, longitud: LLERAS.longitud });
    expect(given.puntos.at(-1)).toEqual({ latitud: ESTADIO.latitud, longitud: ESTADIO.longitud });
    const stored = await app.db.quote.findUniqueOrThrow({ where: { id: given.cotizacion_id } });
    expect(stored).toMatchObject({
      usuario_id: passenger.id,
      tipo_servicio: "auto",
      metodo_pago: "efectivo",
      precio_estimado: given.precio_estimado,
    });

    const anonymous = await quote(undefined);
    expect(anonymous).toMatchObject({
      __typename: "EstimacionTarifa",
      cotizacion_id: null,
      vence_en: null,
      precio_estimado: given.precio_estimado,
    });
  });

  it("quotes a pickup time ahead with that time's surcharge and no demand multiplier, Bogotá time when no zone is sent", async () => {
    const passenger = await passengerWithCarNearby();
    // 23:00 in Bogotá, two days ahead: the night surcharge.
    const night = await quote(passenger.id, TRIP, "2026-03-12T23:00");
    expect(night).toMatchObject({ fecha_programada: "2026-03-13T04:00:00.000Z", recargo: "nocturno", multiplicador_demanda: 1 });
    const { recargo_nocturno } = await app.db.pricingRate.findUniqueOrThrow({ where: { tipo_vehiculo: "auto" } });
    const parts = night.tarifa_base + night.por_distancia + night.por_tiempo;
    expect(night.por_recargo).toBe(Math.round(parts * recargo_nocturno));
    expect(night.precio_estimado).toBe(Math.round((parts * (1 + recargo_nocturno)) / 100) * 100);

    const refusals = await Promise.all(
      ["2026-03-10T10:20", "2026-03-18T10:01", "2026-03-12", "mañana"].map((at) => quote(passenger.id, TRIP, at)),
    );
    expect(refusals.map(({ code, message }) => [code, message])).toEqual([
      ["VALIDATION", "El campo 'fecha_programada' debe ser al menos 30 minutos después de ahora"],
      ["VALIDATION", "El campo 'fecha_programada' no puede ser más de 7 días después de ahora"],
      [
        "VALIDATION",
        "El campo 'fecha_programada' debe ser una fecha y hora ISO 8601 válida (AAAA-MM-DDTHH:MM, hora de Bogotá si no lleva zona)",
      ],
      [
        "VALIDATION",
        "El campo 'fecha_programada' debe ser una fecha y hora ISO 8601 válida (AAAA-MM-DDTHH:MM, hora de Bogotá si no lleva zona)",
      ],
    ]);
  });

  it("keeps a passenger's last 20 quotes and drops the expired ones", async () => {
    const passenger = await passengerWithCarNearby();
    const first = await quote(passenger.id);
    for (let i = 0; i < 20; i++) {
      clock.advance(1000);
      await quote(passenger.id);
    }
    const kept = await app.db.quote.findMany({ where: { usuario_id: passenger.id } });
    expect(kept).toHaveLength(20);
    expect(kept.map(({ id }) => id)).not.toContain(first.cotizacion_id);
    clock.advance(300_000);
    await quote(passenger.id);
    expect(await app.db.quote.count({ where: { usuario_id: passenger.id } })).toBe(1);
  });
});

describe("a trip asked for with a quote", () => {
  it("keeps the quoted price when the rates change, and is charged at most that price", async () => {
    const passenger = await passengerWithCarNearby();
    const given = await quote(passenger.id);
    const auto = await app.db.pricingRate.findUniqueOrThrow({ where: { tipo_vehiculo: "auto" } });
    await app.db.pricingRate.update({ where: { id: auto.id }, data: { tarifa_base: auto.tarifa_base + 5000 } });
    try {
      const trip = await createTrip(passenger.id, { cotizacion_id: given.cotizacion_id });
      expect(trip).toMatchObject({ __typename: "Viaje", precio_estimado: given.precio_estimado, precio_cotizado: given.precio_estimado });
      expect(trip.distancia_km).toBe(given.distancia_km);
      const driver = await app.db.trip.findUniqueOrThrow({ where: { id: trip.id } });
      expect(driver.cotizacion_id).toBe(given.cotizacion_id);
      // Priced now, without the quote, the same trip costs more.
      const now = await quote(passenger.id);
      expect(now.precio_estimado).toBeGreaterThan(given.precio_estimado);
    } finally {
      await app.db.pricingRate.update({ where: { id: auto.id }, data: { tarifa_base: auto.tarifa_base } });
    }
  });

  it("charges the driver's price when it is lower and the quote's when it is higher, in the trip and in the ledger", async () => {
    for (const over of [-2000, 50_000]) {
      const passenger = await passengerWithCarNearby();
      const driver = await createDriver(app, { at: northOf(LLERAS, 0.2) });
      const given = await quote(passenger.id);
      const trip = await createTrip(passenger.id, { cotizacion_id: given.cotizacion_id });
      expect((await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id })).status).toBe(200);
      expect((await post(app, "/viajes/start_trip.php", { trip_id: trip.id })).status).toBe(200);
      const asked = given.precio_estimado + over;
      const completed = await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: asked });
      const charged = Math.min(asked, given.precio_estimado);
      expect(completed.body.trip.precio_final, JSON.stringify(completed.body)).toBe(charged);
      const stored = await app.db.trip.findUniqueOrThrow({ where: { id: trip.id } });
      expect(stored.comision_plataforma! + stored.comision_metodo_pago! + stored.ganancia_conductor!).toBe(charged);
      const lines = await app.db.ledgerLine.findMany({ where: { asiento: { viaje_id: trip.id } } });
      expect(lines.reduce((sum, line) => sum + line.monto, 0)).toBe(0);
      expect(lines.find((line) => line.concepto === "efectivo_cobrado")?.monto).toBe(-charged);
    }
  });

  it("refuses a quote that expired, is someone else's, or does not exist with a 400 naming cotizacion_id, and creates nothing", async () => {
    const passenger = await passengerWithCarNearby();
    const other = await createPassenger(app);
    const theirs = await quote(other.id);
    const mine = await quote(passenger.id);
    const unknown = await createTrip(passenger.id, { cotizacion_id: "cot_AAAAAAAAAAAAAAAAAAAAAA" });
    const foreign = await createTrip(passenger.id, { cotizacion_id: theirs.cotizacion_id });
    // Nobody learns from the answer whether someone else's quote exists.
    for (const refused of [unknown, foreign]) {
      expect(refused).toEqual({
        __typename: "ValidationError",
        code: "VALIDATION",
        message: "El campo 'cotizacion_id' no es una cotización tuya vigente; pide otra cotización o pide el viaje sin ella",
      });
    }
    clock.advance(300_000);
    const expired = await createTrip(passenger.id, { cotizacion_id: mine.cotizacion_id });
    expect(expired.message).toBe("El campo 'cotizacion_id' venció a las 10:05; pide otra cotización o pide el viaje sin ella");
    expect(await tripsOf(passenger.id)).toBe(0);
    // Asked again without it (and with a driver whose position is fresh), the trip is created.
    await createDriver(app);
    expect((await createTrip(passenger.id, {})).__typename).toBe("Viaje");
  });

  it("refuses a quote for another service, payment method, pickup, destination or time", async () => {
    const passenger = await passengerWithCarNearby();
    const given = await quote(passenger.id);
    const ahead = await quote(passenger.id, TRIP, "2026-03-11T08:00:00-05:00");
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ tipo_servicio: "motocicleta" }, "es para el servicio 'auto'"],
      [{ metodo_pago: "tarjeta" }, "es para pagar con 'efectivo'"],
      [{ origen: northOf(LLERAS, 0.3) }, "es para otro punto de recogida"],
      [{ destino: northOf(ESTADIO, 0.3) }, "es para otro destino"],
      [{ cotizacion_id: ahead.cotizacion_id }, "es para un viaje programado a otra hora"],
    ];
    for (const [change, reason] of cases) {
      const refused = await createTrip(passenger.id, { cotizacion_id: given.cotizacion_id, ...change });
      expect(refused.message, JSON.stringify(change)).toBe(`El campo 'cotizacion_id' ${reason}`);
    }
    expect(await tripsOf(passenger.id)).toBe(0);
    // A few metres of drift between the preview and the request is the same place.
    const drifted = await createTrip(passenger.id, { cotizacion_id: given.cotizacion_id, origen: northOf(LLERAS, 0.03) });
    expect(drifted).toMatchObject({ __typename: "Viaje", precio_cotizado: given.precio_estimado });
  });

  it("buys one trip: used once, it is refused for the next", async () => {
    const passenger = await passengerWithCarNearby();
    const given = await quote(passenger.id);
    const trip = await createTrip(passenger.id, { cotizacion_id: given.cotizacion_id });
    expect((await post(app, "/viajes/cancel_trip.php", { trip_id: trip.id, motivo: "Me equivoqué" })).status).toBe(200);
    const again = await createTrip(passenger.id, { cotizacion_id: given.cotizacion_id });
    expect(again.message).toBe(
      `El campo 'cotizacion_id' ya se usó para el viaje ${trip.id}; pide otra cotización o pide el viaje sin ella`,
    );
  });

  it("is not asked for when quoting", async () => {
    const passenger = await passengerWithCarNearby();
    const refused = await quote(passenger.id, { ...TRIP, cotizacion_id: "cot_x" });
    expect(refused.message).toBe("El campo 'cotizacion_id' no se envía al cotizar: es lo que la cotización responde");
  });

  it("goes with the account when it is deleted", async () => {
    const passenger = await passengerWithCarNearby();
    await quote(passenger.id);
    const admin = await newAdmin(app);
    const deleted = await app.graphql(`mutation ($id: Int!) { deleteUser(user_id: $id) { __typename } }`, { id: passenger.id }, admin.id);
    expect(deleted.data.deleteUser.__typename).not.toMatch(/Error$/);
    expect(await app.db.quote.count({ where: { usuario_id: passenger.id } })).toBe(0);
  });
});

describe("the legacy /pricing/calculate_quote.php", () => {
  const FLAT = {
    tipo_vehiculo: "carro",
    latitud_origen: String(LLERAS.latitud),
    longitud_origen: String(LLERAS.longitud),
    latitud_destino: String(ESTADIO.latitud),
    longitud_destino: String(ESTADIO.longitud),
  };

  it("answers the quote under cotizacion and data, with its breakdown in pesos, and ignores the app's own distance", async () => {
    const passenger = await passengerWithCarNearby();
    const graphql = await quote(passenger.id);
    const answer = await post(app, "/pricing/calculate_quote.php", {
      usuario_id: passenger.id,
      ...FLAT,
      distancia_km: 0.5,
      duracion_minutos: 1,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const cotizacion = {
      cotizacion_id: expect.stringMatching(/^cot_/),
      precio_estimado: graphql.precio_estimado,
      vence_en: "2026-03-10T15:05:00.000Z",
      tipo_servicio: "auto",
      fecha_programada: null,
      distancia_km: graphql.distancia_km,
      duracion_estimada_minutos: graphql.duracion_estimada_minutos,
      desglose: {
        tarifa_base: graphql.tarifa_base,
        distancia: graphql.por_distancia,
        tiempo: graphql.por_tiempo,
        recargo: 0,
        multiplicador_demanda: graphql.multiplicador_demanda,
      },
    };
    expect(answer.body).toEqual({ success: true, message: "Cotización lista", cotizacion, data: answer.body.cotizacion });
    expect(answer.body.cotizacion).toEqual(cotizacion);
  });

  it("is what create_trip_request.php and create_trip.php take as cotizacion_id; a price the app sends changes nothing", async () => {
    const passenger = await passengerWithCarNearby();
    const { cotizacion } = (await post(app, "/pricing/calculate_quote.php", { usuario_id: passenger.id, ...FLAT, metodo_pago: "efectivo" }))
      .body;
    const created = await post(app, "/user/create_trip_request.php", {
      usuario_id: passenger.id,
      ...FLAT,
      cotizacion_id: cotizacion.cotizacion_id,
      precio_estimado: 1000,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.trip.precio_estimado).toBe(cotizacion.precio_estimado);
    expect(await app.db.trip.findUniqueOrThrow({ where: { id: created.body.trip.id } })).toMatchObject({
      cotizacion_id: cotizacion.cotizacion_id,
      precio_cotizado: cotizacion.precio_estimado,
    });

    const other = await createPassenger(app);
    const second = (await post(app, "/pricing/calculate_quote.php", { usuario_id: other.id, ...FLAT })).body.cotizacion;
    const nested = await post(app, "/viajes/create_trip.php", {
      usuario_id: other.id,
      tipo_servicio: "auto",
      origen: LLERAS,
      destino: ESTADIO,
      cotizacion_id: second.cotizacion_id,
    });
    expect(nested.status, JSON.stringify(nested.body)).toBe(200);
    expect(nested.body.trip.precio_estimado).toBe(second.precio_estimado);
  });

  it("answers a clear 400 for what it cannot quote, and for another passenger's quote", async () => {
    const passenger = await passengerWithCarNearby();
    const call = (fields: Record<string, unknown>) =>
      post(app, "/pricing/calculate_quote.php", { usuario_id: passenger.id, ...FLAT, ...fields });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ latitud_origen: undefined }, "El campo 'latitud_origen' es obligatorio"],
      [{ longitud_destino: "oeste" }, "El campo 'longitud_destino' debe ser un número"],
      [{ tipo_vehiculo: "avion" }, expect.stringMatching(/^El campo 'tipo_vehiculo' debe ser uno de/)],
      [{ fecha_programada: "2026-03-10T10:10" }, "El campo 'fecha_programada' debe ser al menos 30 minutos después de ahora"],
      [{ metodo_pago: "bitcoin" }, expect.stringMatching(/^El campo 'metodo_pago' debe ser uno de/)],
    ];
    for (const [fields, message] of cases) {
      const answer = await call(fields);
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      expect(answer.body).toEqual({ success: false, message });
    }
    expect(await app.db.quote.count({ where: { usuario_id: passenger.id } })).toBe(0);

    const mine = (await call({})).body.cotizacion;
    const other = await createPassenger(app);
    const replayed = await post(app, "/user/create_trip_request.php", { usuario_id: other.id, ...FLAT, cotizacion_id: mine.cotizacion_id });
    expect(replayed.status).toBe(400);
    expect(replayed.body.message).toBe(
      "El campo 'cotizacion_id' no es una cotización tuya vigente; pide otra cotización o pide el viaje sin ella",
    );
  });
});
