import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { newAdmin, submittedDriver } from "../support/drivers.js";

/** An administrator's decision on a driver, repeated: answered as done, and nothing written again. */

let app: TestApp;
let admin: { id: number };
beforeAll(async () => {
  app = await createTestApp();
  admin = await newAdmin(app);
});
afterAll(() => app.close());

const approve = (conductorId: number) =>
  app.legacy("POST", "/admin/aprobar_conductor.php", { admin_id: admin.id, conductor_id: conductorId });
const reject = (conductorId: number, motivo: string) =>
  app.legacy("POST", "/admin/rechazar_conductor.php", { admin_id: admin.id, conductor_id: conductorId, motivo });

/** What a decision writes: audit entries, notifications, and the profile itself. */
const written = async (conductorId: number) => ({
  audit: await app.db.auditEntry.count({ where: { objetivo_tipo: "conductor", objetivo_id: conductorId } }),
  notifications: await app.db.notification.count({ where: { usuario_id: conductorId } }),
  profile: await app.db.driverProfile.findUniqueOrThrow({ where: { conductor_id: conductorId } }),
});

describe("repeated decisions", () => {
  it("approving an approved driver again succeeds saying so, and writes nothing", async () => {
    const driver = await submittedDriver(app);
    const first = await approve(driver.id);
    expect(first.body).toEqual({ success: true, message: "Conductor aprobado" });
    const before = await written(driver.id);
    const again = await approve(driver.id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ success: true, message: "El conductor ya estaba aprobado" });
    expect(await written(driver.id)).toEqual(before);
  });

  it("rejecting with the same reason again writes nothing; another reason replaces it and the driver is told", async () => {
    const driver = await submittedDriver(app);
    expect((await reject(driver.id, "La foto del SOAT no se lee")).body.message).toBe("Conductor rechazado; se le notificó el motivo");
    const before = await written(driver.id);
    const again = await reject(driver.id, "La foto del SOAT no se lee");
    expect(again.body).toEqual({ success: true, message: "El conductor ya estaba rechazado con ese motivo" });
    expect(await written(driver.id)).toEqual(before);

    const amended = await reject(driver.id, "Falta la tarjeta de propiedad");
    expect(amended.body).toEqual({ success: true, message: "Conductor rechazado; se le notificó el motivo" });
    const after = await written(driver.id);
    expect(after.profile.motivo_rechazo).toBe("Falta la tarjeta de propiedad");
    expect(after.audit).toBe(before.audit + 1);
    expect(after.notifications).toBe(before.notifications + 1);
  });

  it("still refuses to approve a rejected driver or reject an approved one", async () => {
    const rejected = await submittedDriver(app);
    await reject(rejected.id, "Documentos incompletos");
    const approving = await approve(rejected.id);
    expect(approving.status).toBe(400);
    expect(approving.body.message).toBe("El conductor no tiene una solicitud en revisión (estado: rechazado)");
    const approved = await submittedDriver(app);
    await approve(approved.id);
    expect((await reject(approved.id, "x")).body.message).toBe("El conductor no tiene una solicitud en revisión (estado: aprobado)");
  });

  it("says over GraphQL whether the decision had already been made", async () => {
    const driver = await submittedDriver(app);
    const APPROVE = `mutation ($id: Int!) { approveDriver(conductor_id: $id) { ... on ResultadoRevision { perfil { aprobado } repetido } } }`;
    expect((await app.graphql(APPROVE, { id: driver.id }, admin.id)).data.approveDriver).toEqual({
      perfil: { aprobado: true },
      repetido: false,
    });
    expect((await app.graphql(APPROVE, { id: driver.id }, admin.id)).data.approveDriver).toEqual({
      perfil: { aprobado: true },
      repetido: true,
    });
  });
});
