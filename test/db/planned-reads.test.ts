import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { beginUnit, unitScope } from "../../src/db/unit.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { testProvider } from "../support/database.js";
import { createDriver, createPassenger, tripIn } from "../support/trips.js";

/** Planned reads answer exactly as Prisma does, and run as one statement when they are planned. */
let app: TestApp;
let ids: { trips: number[]; drivers: number[]; passengers: number[] };

beforeAll(async () => {
  app = await createTestApp();
  const made = await Promise.all(
    (["pendiente", "aceptado", "en_curso", "completado", "cancelado"] as const).map((state) => tripIn(app, state)),
  );
  // A driver without licence or vehicle, and one suspended: relations that are absent, booleans and dates that are set.
  const bare = await createPassenger(app);
  await app.db.user.update({ where: { id: bare.id }, data: { es_activo: false, fecha_suspension: new Date("2026-03-10T15:00:00.123Z") } });
  const offline = await createDriver(app, { online: false, approved: false });
  ids = {
    trips: made.map((m) => m.trip.id),
    drivers: [...made.map((m) => m.driver.id), offline.id],
    passengers: [...made.map((m) => m.passenger.id), bare.id],
  };
});
afterAll(() => app.close());

// biome-ignore lint/plugin: both have each model's reads under its delegate's name; the test names them at run time
const byName = (client: object) => client as unknown as Record<string, Record<string, (args: unknown) => Promise<unknown>>>;

/** Reads `args` both ways; what Prisma answers and whether the planned read went to the database as one planned statement. */
async function both(delegate: string, kind: "findUnique" | "findFirst" | "findMany", args: Record<string, unknown>) {
  const { db, reads } = app.server.deps;
  const before = app.queries.length;
  const planned = await byName(reads)[delegate]![kind]!(args);
  const sent = app.queries.slice(before);
  const prisma = await byName(db)[delegate]![kind]!(args);
  return { planned, prisma, sent };
}

const TRIP_WITH_DRIVER = {
  include: {
    conductor: { select: { perfil_conductor: { select: { vehiculo: true } }, id: true, nombre: true, apellido: true, telefono: true } },
  },
};

describe("a planned read", () => {
  it("reads a trip with its driver, the driver's profile and vehicle in one statement, as Prisma would", async () => {
    for (const id of [...ids.trips, 999_999]) {
      const { planned, prisma, sent } = await both("trip", "findUnique", { where: { id }, ...TRIP_WITH_DRIVER });
      expect(planned).toEqual(prisma);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatch(/^SELECT t0\./);
    }
    // Pending: no driver yet; the others have one, with a vehicle.
    const pending = await app.server.deps.reads.trip.findUnique({ where: { id: ids.trips[0]! }, ...TRIP_WITH_DRIVER });
    expect(pending?.conductor).toBeNull();
    const taken = await app.server.deps.reads.trip.findUnique({ where: { id: ids.trips[1]! }, ...TRIP_WITH_DRIVER });
    expect(taken?.conductor?.perfil_conductor?.vehiculo?.placa).toMatch(/^[0-9A-F]{6}$/);
  });

  it("reads users with absent relations, booleans, dates and nulls as Prisma does", async () => {
    for (const id of [...ids.drivers, ...ids.passengers]) {
      const args = {
        where: { id },
        include: { perfil_conductor: { include: { licencia: true, vehiculo: true, estado: true } }, empresa: true },
      };
      const { planned, prisma, sent } = await both("user", "findUnique", args);
      expect(planned).toEqual(prisma);
      expect(sent).toHaveLength(1);
      const selected = await both("user", "findUnique", { where: { id }, select: { id: true, es_activo: true, fecha_suspension: true } });
      expect(selected.planned).toEqual(selected.prisma);
    }
  });

  it("finds by a compound unique key, and with conditions, order, take and skip", async () => {
    const offer = await app.db.tripOffer.findFirstOrThrow();
    const compound = await both("tripOffer", "findUnique", {
      where: { viaje_id_conductor_id: { viaje_id: offer.viaje_id, conductor_id: offer.conductor_id } },
    });
    expect(compound.planned).toEqual(compound.prisma);
    expect(compound.planned).not.toBeNull();
    const many = await both("trip", "findMany", {
      where: { estado: { in: ["pendiente", "cancelado", "completado"] }, conductor_id: null, precio_estimado: { gte: 0 } },
      orderBy: [{ fecha_solicitud: "desc" }, { id: "desc" }],
      take: 2,
      skip: 0,
    });
    expect(many.planned).toEqual(many.prisma);
    expect(many.sent).toHaveLength(1);
  });

  it("binds its values where SQLite's planner does not look, so that a prepared statement is not planned again at each run", async () => {
    const joined = await both("trip", "findUnique", { where: { id: ids.trips[1]! }, ...TRIP_WITH_DRIVER });
    const limited = await both("trip", "findMany", {
      where: { estado: { in: ["pendiente", "cancelado"] } },
      orderBy: { id: "asc" },
      take: 2,
      skip: 1,
    });
    for (const { planned, prisma, sent } of [joined, limited]) {
      expect(planned).toEqual(prisma);
      // SQLite plans again a statement whose bound value in a join or a LIMIT it looked at; it does not look into `+?`.
      if (testProvider === "sqlite") expect(sent[0]!.match(/[^+]\?/g)).toBeNull();
      else expect(sent[0]).toMatch(/\$1\b/);
    }
    expect(limited.sent[0]).toMatch(/LIMIT \+\? OFFSET \+\?|LIMIT \$\d+ OFFSET \$\d+/);
  });

  it("answers any mix of simple conditions on trips as Prisma does", async () => {
    const { clock } = app.server.deps;
    const states = ["pendiente", "aceptado", "en_curso", "completado", "cancelado", "en_ruta"];
    const condition = fc.record(
      {
        estado: fc.oneof(fc.constantFrom(...states), fc.record({ in: fc.subarray(states) })),
        conductor_id: fc.oneof(fc.constant(null), fc.record({ not: fc.constant(null) }), fc.constantFrom(...ids.drivers)),
        usuario_id: fc.record({ gte: fc.constantFrom(...ids.passengers) }, { requiredKeys: [] }),
        fecha_solicitud: fc.record(
          { lt: fc.integer({ min: -3600, max: 3600 }).map((s) => new Date(clock.now().getTime() + s * 1000)) },
          { requiredKeys: [] },
        ),
        precio_final: fc.oneof(fc.constant(null), fc.record({ equals: fc.constant(20000) })),
      },
      { requiredKeys: [] },
    );
    const order = fc.subarray([{ fecha_solicitud: "desc" }, { precio_estimado: "asc" }, { id: "asc" }] as Array<Record<string, string>>);
    await fc.assert(
      fc.asyncProperty(condition, order, fc.option(fc.nat(4), { nil: undefined }), async (where, orderBy, take) => {
        // Ties broken by id, so that both sides have one order to give.
        const args = { where, orderBy: [...orderBy, { id: "desc" }], ...(take !== undefined && { take }) };
        const { planned, prisma, sent } = await both("trip", "findMany", args);
        expect(planned).toEqual(prisma);
        expect(sent).toHaveLength(1);
      }),
      { numRuns: 60 },
    );
  });

  it("leaves to Prisma what it does not plan: lists of related rows, text search, counts", async () => {
    const id = ids.drivers[0]!;
    for (const args of [
      { where: { id }, include: { viajes_conductor: true } },
      { where: { id }, include: { _count: { select: { viajes_conductor: true } } } },
    ]) {
      const { planned, prisma, sent } = await both("user", "findUnique", args);
      expect(planned).toEqual(prisma);
      expect(sent.some((sql) => sql.startsWith("SELECT t0."))).toBe(false);
    }
    const trip = ids.trips[1]!;
    for (const where of [
      { email: { contains: "example" } },
      // A relation's filter and NOT name fields this model also has: they are not a compound key.
      { viajes_conductor: { some: { id: trip } } },
      { NOT: { id } },
      { OR: [{ id }, { id: ids.passengers[0]! }] },
    ]) {
      const { planned, prisma, sent } = await both("user", "findMany", { where, orderBy: { id: "asc" } });
      expect(planned).toEqual(prisma);
      expect(sent.some((sql) => sql.startsWith("SELECT t0."))).toBe(false);
    }
    const byDriver = await both("trip", "findMany", { where: { conductor: { id } }, orderBy: { id: "asc" } });
    expect(byDriver.planned).toEqual(byDriver.prisma);
    expect(byDriver.sent.some((sql) => sql.startsWith("SELECT t0."))).toBe(false);
  });
});

describe("inside a unit of work", () => {
  it("reads what the unit wrote, while others keep reading what is committed", async () => {
    const id = ids.passengers[0]!;
    const { db, reads } = app.server.deps;
    const committed = await db.user.findUniqueOrThrow({ where: { id } });
    await unitScope(async () => {
      const unit = await beginUnit(db, { timeoutMs: 10_000, maxWaitMs: 10_000 });
      try {
        await db.user.update({ where: { id }, data: { nombre: "En curso" } });
        expect((await reads.user.findUnique({ where: { id } }))?.nombre).toBe("En curso");
        // Another request, outside this unit: the unit's change is not committed.
        const outside = await unitScope(() => reads.user.findUnique({ where: { id } }));
        expect(outside?.nombre).toBe(committed.nombre);
      } finally {
        await unit.rollback();
      }
    });
    expect((await reads.user.findUnique({ where: { id } }))?.nombre).toBe(committed.nombre);
  });
});
