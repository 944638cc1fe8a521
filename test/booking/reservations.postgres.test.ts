import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "../../src/server.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { logLines } from "../support/log.js";
import { createLogger } from "../../src/logger.js";
import { createPassenger, ESTADIO, LLERAS } from "../support/trips.js";

/**
 * Two servers on one PostgreSQL database look for the reservations due at the same times: each is
 * reminded of, dispatched and ended once all the same. (SQLite serves one process.)
 */
let app: TestApp;
const clock = new FixedClock("2026-03-10T15:00:00Z");
const { lines, sink } = logLines();
const log = createLogger({ LOG_LEVEL: "info" }, sink);
beforeAll(async () => {
  app = await createTestApp({ clock, log });
});
afterAll(() => app.close());

const BOOK = `mutation ($input: ReservaInput!) { bookTrip(input: $input) { __typename ... on Reserva { id } } }`;

describe("reservations across processes", () => {
  it("are reminded of, dispatched and ended once when two processes do it at the same time", async () => {
    const other = await buildServer(app.config, { clock, log });
    try {
      other.startWork();
      await other.nudgeBookings();
      const passengers = [];
      for (let i = 0; i < 12; i++) {
        const passenger = await createPassenger(app);
        const { data } = await app.graphql(
          BOOK,
          { input: { tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO, fecha_programada: "2026-03-10T12:00" } },
          passenger.id,
        );
        expect(data.bookTrip.__typename).toBe("Reserva");
        passengers.push(passenger);
      }
      const both = () =>
        Promise.all([app.server.nudgeBookings(), other.nudgeBookings(), app.server.nudgeBookings(), other.nudgeBookings()]);
      // An hour before: reminded; 15 minutes before: reminded again and dispatched; 10 minutes after, nobody took them: ended.
      for (const at of ["2026-03-10T16:00:30Z", "2026-03-10T16:45:30Z", "2026-03-10T17:10:30Z"]) {
        clock.set(at);
        await both();
      }
      for (const passenger of passengers) {
        expect(await app.db.trip.count({ where: { usuario_id: passenger.id } })).toBe(1);
        const booking = await app.db.reservation.findFirstOrThrow({ where: { usuario_id: passenger.id } });
        expect(booking.estado).toBe("vencida");
        const titles = (await app.db.notification.findMany({ where: { usuario_id: passenger.id, tipo: "reserva" } }))
          .map((n) => n.titulo)
          .sort();
        expect(titles).toEqual([
          "Nadie tomó tu viaje reservado",
          "Tu viaje reservado es en 15 minutos",
          "Tu viaje reservado es en una hora",
        ]);
        expect(await app.db.outboxMail.count({ where: { destinatario: passenger.email, asunto: { contains: "viaje reservado" } } })).toBe(
          3,
        );
      }
      // The process that lost a reservation to the other says nothing of it.
      expect(lines.filter((line) => (line.level as number) >= 40)).toEqual([]);
    } finally {
      await other.stop();
    }
  });
});
