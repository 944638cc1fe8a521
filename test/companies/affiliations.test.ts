import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { activeCompany, field, lastMailTo, signUpCompany } from "../support/companies.js";
import { newAdmin, newDriver } from "../support/drivers.js";
import { tableCounts, uniqueEmail } from "../support/fixtures.js";

let app: TestApp;
let admin: { id: number };
beforeAll(async () => {
  app = await createTestApp();
  admin = await newAdmin(app);
});
afterAll(() => app.close());

const REQUESTS = `query ($estado: EstadoAfiliacion) {
  companyAffiliations(estado: $estado) { __typename ... on PaginaSolicitudesAfiliacion { items { id conductor_id conductor_nombre estado es_invitacion } } }
}`;
const ACCEPT = `mutation ($id: Int!) { acceptCompanyAffiliation(solicitud_id: $id) { __typename ... on SolicitudAfiliacion { estado } ... on Error { code message } } }`;
const REFUSE = `mutation ($id: Int!, $motivo: String) {
  refuseCompanyAffiliation(solicitud_id: $id, motivo: $motivo) { __typename ... on SolicitudAfiliacion { estado motivo } ... on Error { code message } }
}`;
const INVITE = `mutation ($email: String!) { inviteDriver(email: $email) { __typename ... on SolicitudAfiliacion { id estado email } ... on Error { code message } } }`;
const MINE = `{ myAffiliations { __typename ... on QueryMyAffiliationsSuccess { data { id estado es_invitacion empresa { nombre } } } } }`;
const HISTORY = `query ($id: Int) {
  affiliationHistory(conductor_id: $id) {
    __typename ... on QueryAffiliationHistorySuccess { data { empresa_anterior_id empresa_nueva_id accion actor_id } } ... on Error { code }
  }
}`;

/** The driver's company as the apps read it: the user's empresa_id (spec 2.1; the driver profile of get_profile.php has none). */
const companyOf = async (conductorId: number) =>
  (await app.legacy("GET", "/auth/profile.php", { userId: conductorId })).body.user.empresa_id as number | null;

const ask = (conductorId: number, empresaId: number) =>
  app.legacy("POST", "/conductor/update_vehicle.php", { conductor_id: conductorId, empresa_id: empresaId, vehiculo_color: "Rojo" });

describe("a driver asking to join a company", () => {
  it("creates a request, says so, and leaves the driver's company unchanged until the company accepts", async () => {
    const { manager, company } = await activeCompany(app, admin.id, "Motos Envigado");
    const driver = await newDriver(app);
    const asked = await ask(driver.id, company.id);
    expect(asked.status).toBe(200);
    expect(asked.body.message).toContain("Tu solicitud a Motos Envigado está pendiente");
    expect(asked.body.vehicle.color).toBe("Rojo");
    expect(await app.db.user.findUniqueOrThrow({ where: { id: driver.id } })).toMatchObject({ empresa_id: null });
    expect((await lastMailTo(app, manager.email))?.asunto).toMatch(/^Un conductor quiere unirse/);

    const pending = await field(app, REQUESTS, { estado: "solicitada" }, manager.id);
    const request = pending.items.find((item: { conductor_id: number }) => item.conductor_id === driver.id);
    expect(request).toMatchObject({ estado: "solicitada", es_invitacion: false, conductor_nombre: "Ana Restrepo" });

    expect(await field(app, ACCEPT, { id: request.id }, manager.id)).toEqual({ __typename: "SolicitudAfiliacion", estado: "aceptada" });
    expect((await app.db.user.findUniqueOrThrow({ where: { id: driver.id } })).empresa_id).toBe(company.id);
    expect(await companyOf(driver.id)).toBe(company.id);
    expect((await lastMailTo(app, driver.email))?.asunto).toMatch(/^Tu solicitud fue aceptada/);
    expect(await app.db.notification.count({ where: { usuario_id: driver.id, tipo: "afiliacion_aceptada" } })).toBe(1);

    const history = await field(app, HISTORY, { id: driver.id }, manager.id);
    expect(history.data).toEqual([
      { empresa_anterior_id: null, empresa_nueva_id: company.id, accion: "aceptada_por_empresa", actor_id: manager.id },
    ]);
    // A request answered once cannot be answered again.
    expect(await field(app, ACCEPT, { id: request.id }, manager.id)).toMatchObject({ code: "INVALID_STATE" });
  });

  it("is a 400 naming empresa_id for an unknown or inactive company, with nothing written", async () => {
    const driver = await newDriver(app);
    const { company: pending } = await signUpCompany(app);
    const before = {
      ...(await tableCounts(app)),
      requests: await app.db.companyAffiliation.count(),
      vehicles: await app.db.vehicle.count(),
    };
    for (const empresaId of [999_999, pending.id]) {
      const response = await ask(driver.id, empresaId);
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/empresa_id/);
    }
    expect({
      ...(await tableCounts(app)),
      requests: await app.db.companyAffiliation.count(),
      vehicles: await app.db.vehicle.count(),
    }).toEqual(before);
  });

  it("is refused by the company with a reason the driver is told", async () => {
    const { manager, company } = await activeCompany(app, admin.id);
    const driver = await newDriver(app);
    await ask(driver.id, company.id);
    const request = await app.db.companyAffiliation.findFirstOrThrow({ where: { conductor_id: driver.id, empresa_id: company.id } });
    expect(await field(app, REFUSE, { id: request.id, motivo: "No tenemos cupo" }, manager.id)).toEqual({
      __typename: "SolicitudAfiliacion",
      estado: "rechazada",
      motivo: "No tenemos cupo",
    });
    expect((await lastMailTo(app, driver.email))?.cuerpo).toContain("No tenemos cupo");
    expect((await app.db.user.findUniqueOrThrow({ where: { id: driver.id } })).empresa_id).toBeNull();
  });

  it("cannot be answered by another company's manager", async () => {
    const first = await activeCompany(app, admin.id);
    const second = await activeCompany(app, admin.id);
    const driver = await newDriver(app);
    await ask(driver.id, first.company.id);
    const request = await app.db.companyAffiliation.findFirstOrThrow({ where: { conductor_id: driver.id } });
    expect(await field(app, ACCEPT, { id: request.id }, second.manager.id)).toMatchObject({ code: "NOT_FOUND" });
    const theirs = await field(app, REQUESTS, {}, second.manager.id);
    expect(theirs.items.map((item: { id: number }) => item.id)).not.toContain(request.id);
    expect((await app.db.user.findUniqueOrThrow({ where: { id: driver.id } })).empresa_id).toBeNull();
  });

  it("withdraws the driver's earlier open request when they ask another company", async () => {
    const first = await activeCompany(app, admin.id);
    const second = await activeCompany(app, admin.id);
    const driver = await newDriver(app);
    await ask(driver.id, first.company.id);
    await ask(driver.id, second.company.id);
    const requests = await app.db.companyAffiliation.findMany({ where: { conductor_id: driver.id }, orderBy: { id: "asc" } });
    expect(requests.map((request) => [request.empresa_id, request.estado])).toEqual([
      [first.company.id, "retirada"],
      [second.company.id, "solicitada"],
    ]);
  });

  it("accepted by two managers at the same moment, counts once", async () => {
    const { manager, company } = await activeCompany(app, admin.id);
    const other = await app.graphql(
      `mutation ($input: ManagerInput!) { inviteCompanyManager(input: $input) { ... on GestorEmpresa { id } } }`,
      { input: { email: uniqueEmail(), nombre: "Otro", apellido: "Gestor", telefono: "3001112233" } },
      manager.id,
    );
    const driver = await newDriver(app);
    await ask(driver.id, company.id);
    const request = await app.db.companyAffiliation.findFirstOrThrow({ where: { conductor_id: driver.id } });
    const answers = await Promise.all([
      field(app, ACCEPT, { id: request.id }, manager.id),
      field(app, ACCEPT, { id: request.id }, other.data.inviteCompanyManager.id),
    ]);
    expect(answers.map((answer) => answer.__typename).sort()).toEqual(["InvalidStateError", "SolicitudAfiliacion"]);
    expect(await app.db.affiliationChange.count({ where: { conductor_id: driver.id } })).toBe(1);
  });
});

describe("a company inviting a driver by e-mail", () => {
  it("is accepted by the driver, and the company is told", async () => {
    const { manager, company } = await activeCompany(app, admin.id, "Carros Bello");
    const driver = await newDriver(app);
    const invitation = await field(app, INVITE, { email: driver.email.toUpperCase() }, manager.id);
    expect(invitation).toMatchObject({ __typename: "SolicitudAfiliacion", estado: "invitada", email: driver.email });
    expect((await lastMailTo(app, driver.email))?.asunto).toMatch(/^Carros Bello te invita/);
    const mine = await field(app, MINE, {}, driver.id);
    expect(mine.data[0]).toMatchObject({ id: invitation.id, estado: "invitada", es_invitacion: true, empresa: { nombre: "Carros Bello" } });

    // Another driver cannot take someone else's invitation.
    const stranger = await newDriver(app);
    const taken = await field(
      app,
      `mutation ($id: Int!) { acceptCompanyInvitation(solicitud_id: $id) { __typename ... on Error { code } } }`,
      { id: invitation.id },
      stranger.id,
    );
    expect(taken).toMatchObject({ code: "NOT_FOUND" });

    const accepted = await field(
      app,
      `mutation ($id: Int!) { acceptCompanyInvitation(solicitud_id: $id) { __typename ... on SolicitudAfiliacion { estado } } }`,
      { id: invitation.id },
      driver.id,
    );
    expect(accepted).toEqual({ __typename: "SolicitudAfiliacion", estado: "aceptada" });
    expect((await app.db.user.findUniqueOrThrow({ where: { id: driver.id } })).empresa_id).toBe(company.id);
    expect((await lastMailTo(app, manager.email))?.asunto).toMatch(/^Un conductor aceptó tu invitación/);
    const history = await field(app, HISTORY, {}, driver.id);
    expect(history.data[0]).toMatchObject({ empresa_nueva_id: company.id, accion: "aceptada_por_conductor", actor_id: driver.id });
  });

  it("declined by the driver, names them from then on and stays in their list", async () => {
    const { manager } = await activeCompany(app, admin.id);
    const driver = await newDriver(app);
    const invitation = await field(app, INVITE, { email: driver.email }, manager.id);
    const declined = await field(
      app,
      `mutation ($id: Int!) { declineCompanyInvitation(solicitud_id: $id) { __typename ... on SolicitudAfiliacion { estado conductor_id } } }`,
      { id: invitation.id },
      driver.id,
    );
    expect(declined).toEqual({ __typename: "SolicitudAfiliacion", estado: "rechazada", conductor_id: driver.id });
    const mine = await field(app, MINE, {}, driver.id);
    expect(mine.data).toEqual([expect.objectContaining({ id: invitation.id, estado: "rechazada", es_invitacion: true })]);
    expect((await lastMailTo(app, manager.email))?.asunto).toMatch(/^Un conductor rechazó tu invitación/);
  });

  it("answers the same for an address with no account, and mails it how to sign up", async () => {
    const { manager } = await activeCompany(app, admin.id);
    const address = uniqueEmail("futuro.conductor");
    const invitation = await field(app, INVITE, { email: address }, manager.id);
    expect(invitation).toMatchObject({ __typename: "SolicitudAfiliacion", estado: "invitada", email: address });
    expect((await lastMailTo(app, address))?.cuerpo).toMatch(/Regístrate en la app como conductor/);
  });
});

describe("an affiliation ending", () => {
  it("by the company, or by the driver leaving, is kept and the other side is told", async () => {
    const { manager, company } = await activeCompany(app, admin.id);
    const driver = await newDriver(app);
    await ask(driver.id, company.id);
    const request = await app.db.companyAffiliation.findFirstOrThrow({ where: { conductor_id: driver.id } });
    await field(app, ACCEPT, { id: request.id }, manager.id);

    const ended = await field(
      app,
      `mutation ($id: Int!) { endCompanyAffiliation(conductor_id: $id, motivo: "Fin de contrato") { __typename ... on Usuario { empresa_id } } }`,
      { id: driver.id },
      manager.id,
    );
    expect(ended).toEqual({ __typename: "Usuario", empresa_id: null });
    expect((await lastMailTo(app, driver.email))?.cuerpo).toContain("Fin de contrato");

    await ask(driver.id, company.id);
    const again = await app.db.companyAffiliation.findFirstOrThrow({ where: { conductor_id: driver.id, estado: "solicitada" } });
    await field(app, ACCEPT, { id: again.id }, manager.id);
    const left = await field(app, `mutation { leaveCompany { __typename ... on Usuario { empresa_id } } }`, {}, driver.id);
    expect(left).toEqual({ __typename: "Usuario", empresa_id: null });
    expect((await lastMailTo(app, manager.email))?.asunto).toMatch(/^Un conductor dejó tu empresa/);

    const history = await field(app, HISTORY, { id: driver.id }, admin.id);
    expect(history.data.map((change: { accion: string }) => change.accion)).toEqual([
      "retiro_del_conductor",
      "aceptada_por_empresa",
      "terminada_por_empresa",
      "aceptada_por_empresa",
    ]);
    // Once the driver left, the company no longer reads their history.
    expect(await field(app, HISTORY, { id: driver.id }, manager.id)).toMatchObject({ code: "FORBIDDEN" });
  });

  it("by an administrator on user_management.php: an id sets it, 0 clears it, null leaves it; audited and kept", async () => {
    const { company } = await activeCompany(app, admin.id);
    const driver = await newDriver(app);
    const put = (fields: Record<string, unknown>) =>
      app.legacy("PUT", "/admin/user_management.php", { admin_id: admin.id, user_id: driver.id, ...fields });
    expect((await put({ empresa_id: company.id })).body).toEqual({ success: true, message: "Usuario actualizado" });
    expect(await companyOf(driver.id)).toBe(company.id);
    // Null is "not sent", as for every field of the call: the other fields change, the company stays.
    expect((await put({ empresa_id: null, nombre: "Ana María" })).status).toBe(200);
    expect(await companyOf(driver.id)).toBe(company.id);
    expect((await put({ empresa_id: "0" })).body).toEqual({ success: true, message: "Usuario actualizado" });
    expect(await companyOf(driver.id)).toBeNull();
    expect((await put({ empresa_id: 0 })).status).toBe(200);

    const history = await field(app, HISTORY, { id: driver.id }, admin.id);
    expect(history.data).toEqual([
      { empresa_anterior_id: company.id, empresa_nueva_id: null, accion: "asignada_por_administrador", actor_id: admin.id },
      { empresa_anterior_id: null, empresa_nueva_id: company.id, accion: "asignada_por_administrador", actor_id: admin.id },
    ]);
    const audited = await app.db.auditEntry.findMany({
      where: { accion: "afiliar_conductor", objetivo_id: driver.id },
      orderBy: { id: "asc" },
    });
    expect(audited.map((entry) => [entry.admin_id, JSON.parse(entry.detalles!)])).toEqual([
      [admin.id, { empresa_id: company.id }],
      [admin.id, { empresa_id: null }],
    ]);
    expect((await lastMailTo(app, driver.email))?.asunto).toMatch(/^Ya no perteneces a una empresa/);

    const negative = await put({ empresa_id: -1 });
    expect(negative.status).toBe(400);
    expect(negative.body.message).toMatch(/empresa_id.*debe ser un identificador positivo, o 0 para ninguno/);
  });

  it("by an administrator setting or clearing it directly, is audited and kept", async () => {
    const { company } = await activeCompany(app, admin.id);
    const driver = await newDriver(app);
    const set = await app.legacy("PUT", "/admin/user_management.php", { admin_id: admin.id, user_id: driver.id, empresa_id: company.id });
    expect(set.status).toBe(200);
    expect((await app.db.user.findUniqueOrThrow({ where: { id: driver.id } })).empresa_id).toBe(company.id);
    const cleared = await field(
      app,
      `mutation ($id: Int!) { updateUser(user_id: $id, input: { empresa_id: null }) { __typename ... on Usuario { empresa_id } } }`,
      { id: driver.id },
      admin.id,
    );
    expect(cleared).toEqual({ __typename: "Usuario", empresa_id: null });
    const history = await app.db.affiliationChange.findMany({ where: { conductor_id: driver.id }, orderBy: { id: "asc" } });
    expect(history.map((change) => [change.empresa_anterior_id, change.empresa_nueva_id, change.accion, change.actor_id])).toEqual([
      [null, company.id, "asignada_por_administrador", admin.id],
      [company.id, null, "asignada_por_administrador", admin.id],
    ]);
    expect(await app.db.auditEntry.count({ where: { accion: "afiliar_conductor", objetivo_id: driver.id } })).toBe(2);
  });
});
