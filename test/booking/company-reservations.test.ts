import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { activeCompany, field, fleetDriver } from "../support/companies.js";
import { newAdmin } from "../support/drivers.js";
import { registerUser } from "../support/fixtures.js";
import { createDriver, ESTADIO, LLERAS } from "../support/trips.js";

// 10:00 on a Tuesday in Bogotá.
const clock = new FixedClock("2026-03-10T15:00:00.000Z");
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ clock });
});
afterAll(() => app.close());

const LISTED = `id estado zona conductor_id conductor_nombre origen { direccion } destino { direccion } precio_estimado`;
const COMPANY = `query ($e: Int, $estado: EstadoReserva) {
  companyReservations(empresa_id: $e, estado: $estado) {
    __typename
    ... on QueryCompanyReservationsSuccess { data { ${LISTED} } }
    ... on Error { code message }
  }
}`;
const ids = (result: { data: Array<{ id: number }> }) => result.data.map((booking) => booking.id);

async function book(passengerId: number, fecha_programada: string) {
  return field(
    app,
    `mutation ($input: ReservaInput!) { bookTrip(input: $input) { ... on Reserva { id } ... on Error { message } } }`,
    { input: { tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO, fecha_programada } },
    passengerId,
  );
}

const commit = (reservaId: number, driverId: number) =>
  field(app, `mutation ($id: Int!) { commitToReservation(reserva_id: $id) { __typename } }`, { id: reservaId }, driverId);

describe("a company's reservations", () => {
  it("are those its drivers committed to, for its managers and administrators naming it, without the passenger", async () => {
    const admin = await newAdmin(app);
    const { company, manager } = await activeCompany(app, admin.id);
    const other = await activeCompany(app, admin.id);
    const driver = await fleetDriver(app, company.id);
    await app.db.user.update({ where: { id: driver.id }, data: { nombre: "Diego", apellido: "Durán" } });
    const outsider = await createDriver(app);
    const passenger = await registerUser(app, { name: "Paula", lastName: "Pasajera", phone: "3115550000" });
    const ours = await book(passenger.id, "2026-03-11T07:30");
    const theirs = await book(passenger.id, "2026-03-11T08:00");
    const nobodys = await book(passenger.id, "2026-03-11T09:00");
    expect((await commit(ours.id, driver.id)).__typename).toBe("Reserva");
    expect((await commit(theirs.id, outsider.id)).__typename).toBe("Reserva");

    const seen = await field(app, COMPANY, {}, manager.id);
    expect(seen.data).toEqual([
      {
        id: ours.id,
        estado: "programada",
        zona: "Medellín",
        conductor_id: driver.id,
        conductor_nombre: "Diego Durán",
        origen: { direccion: LLERAS.direccion },
        destino: { direccion: ESTADIO.direccion },
        precio_estimado: expect.any(Number),
      },
    ]);
    expect(ids(seen)).not.toContain(nobodys.id);
    expect(ids(await field(app, COMPANY, { e: company.id }, admin.id))).toEqual([ours.id]);
    expect(ids(await field(app, COMPANY, {}, other.manager.id))).toEqual([]);
    expect((await field(app, COMPANY, { e: company.id }, other.manager.id)).code).toBe("FORBIDDEN");
    expect((await field(app, COMPANY, {}, admin.id)).message).toBe("El campo 'empresa_id' es obligatorio para administradores");

    // The list's type has nothing of who booked.
    const { errors } = await app.graphql(
      `{ companyReservations { ... on QueryCompanyReservationsSuccess { data { usuario_id } } } }`,
      {},
      manager.id,
    );
    expect(errors?.[0]?.message).toMatch(/usuario_id/);
    expect(JSON.stringify(seen)).not.toMatch(/Paula|Pasajera|3115550000/);

    // Cancelled by its passenger, it stays in the list with its state, out of the booked ones.
    await field(app, `mutation ($id: Int!) { cancelReservation(reserva_id: $id) { __typename } }`, { id: ours.id }, passenger.id);
    expect((await field(app, COMPANY, {}, manager.id)).data.map((booking: { estado: string }) => booking.estado)).toEqual(["cancelada"]);
    expect(ids(await field(app, COMPANY, { estado: "programada" }, manager.id))).toEqual([]);
  });

  it("name the committed driver in the administrators' list too", async () => {
    const admin = await newAdmin(app);
    const driver = await createDriver(app);
    await app.db.user.update({ where: { id: driver.id }, data: { nombre: "Mateo", apellido: "Mesa" } });
    const passenger = await registerUser(app);
    const booked = await book(passenger.id, "2026-03-12T07:30");
    await commit(booked.id, driver.id);
    const listed = await field(
      app,
      `{ reservations(estado: programada) { ... on QueryReservationsSuccess { data { id conductor_nombre } } } }`,
      {},
      admin.id,
    );
    expect(listed.data).toContainEqual({ id: booked.id, conductor_nombre: "Mateo Mesa" });
  });
});
