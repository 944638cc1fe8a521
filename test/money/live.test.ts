import type { Client } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { newAdmin } from "../support/drivers.js";
import { createDriver } from "../support/trips.js";
import { connect, subscribe } from "../support/ws.js";

let app: TestApp;
let port: number;
const clients: Client[] = [];
beforeAll(async () => {
  app = await createTestApp();
  ({ port } = await app.server.start(0, "127.0.0.1"));
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  await app.close();
});

const as = async (userId: number) => {
  const client = await connect(port, await app.bearer(userId));
  clients.push(client);
  return client;
};

const BALANCE = `subscription ($id: Int) { driverBalanceChanged(conductor_id: $id) { conductor_id disponible en_retiro } }`;
const PAYOUTS = `subscription ($id: Int) { payoutUpdated(conductor_id: $id) { id conductor_id estado monto cuenta { descripcion } } }`;

describe("live money", () => {
  it("tells the driver their balance and payouts as they move, and an administrator every driver's payouts", async () => {
    const admin = await newAdmin(app);
    const driver = await createDriver(app);
    const account = await app.db.payoutAccount.create({ data: { conductor_id: driver.id, tipo: "efectivo", verificada_en: new Date() } });
    const balance = await subscribe(await as(driver.id), BALANCE);
    const own = await subscribe(await as(driver.id), PAYOUTS);
    const everybody = await subscribe(await as(admin.id), PAYOUTS);

    const ADJUST = `mutation ($id: Int!) { adjustBalance(conductor_id: $id, monto: 50000, motivo: "Bono") { __typename } }`;
    expect((await app.graphql(ADJUST, { id: driver.id }, admin.id)).data.adjustBalance.__typename).toBe("SaldoConductor");
    expect((await balance.next()).driverBalanceChanged).toEqual({ conductor_id: driver.id, disponible: 50_000, en_retiro: 0 });

    const REQUEST = `mutation ($cuenta: Int!) { requestPayout(monto: 30000, cuenta_retiro_id: $cuenta) { ... on Retiro { id } } }`;
    const { id } = (await app.graphql(REQUEST, { cuenta: account.id }, driver.id)).data.requestPayout;
    const asked = { id, conductor_id: driver.id, estado: "solicitado", monto: 30_000, cuenta: { descripcion: "efectivo en oficina" } };
    expect((await own.next()).payoutUpdated).toEqual(asked);
    expect((await everybody.next()).payoutUpdated).toEqual(asked);
    expect((await balance.next()).driverBalanceChanged).toEqual({ conductor_id: driver.id, disponible: 20_000, en_retiro: 30_000 });

    const stranger = await createDriver(app);
    const refused = await subscribe(await as(stranger.id), PAYOUTS, { id: driver.id });
    await expect(refused.next()).rejects.toThrow(/Solo el conductor/);
  });
});
