import { describe, expect, it } from "vitest";
import { insertRow } from "../../src/db/insert-row.js";
import { migratedDatabase, testProvider } from "../support/database.js";

/** A row inserted in SQL on a hot path is stored exactly as Prisma would have stored it. */
const migrated = migratedDatabase();

const at = new Date("2026-03-10T15:05:00.123Z");
const TRIP = {
  tipo_servicio: "auto",
  origen_direccion: "Parque Lleras",
  origen_latitud: 6.2087,
  origen_longitud: -75.567,
  destino_direccion: "Estadio",
  destino_latitud: 6.2565,
  destino_longitud: -75.5905,
  destino_referencia: undefined,
  precio_estimado: 9800,
  multiplicador_demanda: 1.2,
  metodo_pago: "efectivo",
  porcentaje_comision: 15,
  distancia_km: 6.4,
  duracion_estimada_minutos: 18,
  fecha_solicitud: at,
  proxima_ola: new Date(at.getTime() + 20_000),
  actualizado_en: at,
};

/** Every column of a trip as the database holds it, without its id. */
async function stored(id: number): Promise<Record<string, unknown>> {
  const [row] = await migrated.db.prisma.$queryRawUnsafe<Array<Record<string, unknown>>>(
    `SELECT * FROM viajes WHERE id = ${testProvider === "sqlite" ? "?" : "$1"}`,
    id,
  );
  const { id: _id, ...columns } = row!;
  return columns;
}

describe("a row inserted in SQL", () => {
  it("holds the same values, in the same stored forms, as the row Prisma creates from the same fields", async () => {
    const byPrisma = await migrated.db.prisma.trip.create({ data: TRIP });
    const inSql = await migrated.db.prisma.$transaction((tx) => insertRow(tx, migrated.db.provider, "Trip", TRIP));
    expect(inSql).toBeGreaterThan(byPrisma.id);
    expect(await stored(inSql)).toEqual(await stored(byPrisma.id));
    // And Prisma reads it back as the same trip.
    const { id: _a, ...read } = (await migrated.db.prisma.trip.findUnique({ where: { id: inSql } }))!;
    const { id: _b, ...created } = byPrisma;
    expect(read).toEqual(created);
  });

  it("refuses a field its model does not have", async () => {
    await expect(
      migrated.db.prisma.$transaction((tx) => insertRow(tx, migrated.db.provider, "Trip", { ...TRIP, precio: 1 })),
    ).rejects.toThrow("Trip has no field precio");
  });
});
