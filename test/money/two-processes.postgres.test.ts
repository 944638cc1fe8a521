import { describe, expect, it } from "vitest";
import { ledgerProblems } from "../../src/domain/money/ledger.js";
import { approveInDatabase, pairOnPostgres, postTo as call, registerOn } from "../support/process.js";
import { ESTADIO, LLERAS } from "../support/trips.js";

const pair = pairOnPostgres();

describe("a trip completed on two processes at once", () => {
  it("is posted once, and the driver's balance moves once", async () => {
    const { a, b, db } = pair;
    const driver = await registerOn(a, "conductor");
    await approveInDatabase(db.prisma, driver.id);
    expect((await call(a, "/conductor/update_location.php", { conductor_id: driver.id, ...LLERAS, disponibilidad: 1 })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const metodo_pago of ["efectivo", "tarjeta"]) {
      const passenger = await registerOn(b, "pasajero");
      const created = await call(b, "/viajes/create_trip.php", {
        usuario_id: passenger.id,
        tipo_servicio: "auto",
        metodo_pago,
        origen: LLERAS,
        destino: ESTADIO,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const trip_id = created.body.trip.id;
      expect((await call(a, "/viajes/accept_trip.php", { trip_id, conductor_id: driver.id })).status).toBe(200);
      expect((await call(b, "/viajes/start_trip.php", { trip_id })).status).toBe(200);
      const answers = await Promise.all([
        call(a, "/viajes/complete_trip.php", { trip_id, precio_final: 20_000 }),
        call(b, "/viajes/complete_trip.php", { trip_id, precio_final: 30_000 }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
      expect(await db.prisma.ledgerEntry.count({ where: { viaje_id: trip_id } })).toBe(1);
    }
    // 20,000 or 30,000 in cash (−3,000 or −4,500), then 20,000 or 30,000 by card (+16,500 or +24,750).
    const { precio_final: first } = await db.prisma.trip.findFirstOrThrow({ where: { conductor_id: driver.id, metodo_pago: "efectivo" } });
    const { ganancia_conductor: net } = await db.prisma.trip.findFirstOrThrow({
      where: { conductor_id: driver.id, metodo_pago: "tarjeta" },
    });
    const account = await db.prisma.ledgerAccount.findUniqueOrThrow({ where: { codigo: `conductor:${driver.id}` } });
    expect(account.saldo).toBe(-Math.round(first! * 0.15) + net!);
    expect(await ledgerProblems(db.prisma)).toEqual([]);
  });
});
