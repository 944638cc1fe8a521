import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { managersCompany } from "../../src/domain/company-scope.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { activeCompany, freshNit, signUpCompany } from "../support/companies.js";
import { newAdmin, newDriver } from "../support/drivers.js";
import { registerUser, uniqueEmail } from "../support/fixtures.js";
import { connect, subscribe } from "../support/ws.js";

/**
 * The companies' rows of the authorization table: every role against every company operation done
 * to company A's objects. Allowed roles succeed; every other role is refused (401 for nobody, an
 * error for somebody), so a manager of company B, or of a company still in review, gets nothing of A.
 */
const ROLES = ["anónimo", "pasajero", "conductor", "gestor", "gestor de otra empresa", "gestor en revisión", "administrador"] as const;
type Role = (typeof ROLES)[number];

interface World {
  ids: Record<Role, number | null>;
  company: number;
  /** A driver of company A, an open request to A, and A's second manager. */
  driver: number;
  request: number;
  secondManager: number;
}

let app: TestApp;
let port: number;
beforeAll(async () => {
  app = await createTestApp();
  ({ port } = await app.server.start(0, "127.0.0.1"));
});
afterAll(() => app.close());

async function world(): Promise<World> {
  const admin = await newAdmin(app);
  const a = await activeCompany(app, admin.id);
  const b = await activeCompany(app, admin.id);
  const pending = await signUpCompany(app);
  const passenger = await registerUser(app);
  const outsider = await newDriver(app);
  const driver = await newDriver(app);
  await app.db.user.update({ where: { id: driver.id }, data: { empresa_id: a.company.id } });
  const asking = await newDriver(app);
  const request = await app.db.companyAffiliation.create({
    data: { empresa_id: a.company.id, conductor_id: asking.id, estado: "solicitada" },
  });
  const second = await app.db.user.create({
    data: {
      email: uniqueEmail("otro.gestor"),
      nombre: "Otro",
      apellido: "Gestor",
      telefono: "3000000000",
      password_hash: "!",
      tipo_usuario: "empresa",
      empresa_id: a.company.id,
    },
  });
  return {
    ids: {
      anónimo: null,
      pasajero: passenger.id,
      conductor: outsider.id,
      gestor: a.manager.id,
      "gestor de otra empresa": b.manager.id,
      "gestor en revisión": pending.manager.id,
      administrador: admin.id,
    },
    company: a.company.id,
    driver: driver.id,
    request: request.id,
    secondManager: second.id,
  };
}

interface Row {
  operation: string;
  allowed: readonly Role[];
  variables: (w: World) => Record<string, unknown>;
}

const ROWS: Row[] = [
  {
    operation: `query ($e: Int) { companyManagers(empresa_id: $e) { __typename ... on Error { code } } }`,
    allowed: ["gestor", "administrador"],
    variables: (w) => ({ e: w.company }),
  },
  {
    operation: `query ($e: Int) { companyAffiliations(empresa_id: $e) { __typename ... on Error { code } } }`,
    allowed: ["gestor", "administrador"],
    variables: (w) => ({ e: w.company }),
  },
  {
    operation: `mutation ($id: Int!) { acceptCompanyAffiliation(solicitud_id: $id) { __typename } }`,
    allowed: ["gestor"],
    variables: (w) => ({ id: w.request }),
  },
  {
    operation: `mutation ($id: Int!) { refuseCompanyAffiliation(solicitud_id: $id) { __typename } }`,
    allowed: ["gestor"],
    variables: (w) => ({ id: w.request }),
  },
  {
    operation: `mutation ($id: Int!) { endCompanyAffiliation(conductor_id: $id) { __typename } }`,
    allowed: ["gestor"],
    variables: (w) => ({ id: w.driver }),
  },
  {
    operation: `mutation ($id: Int!) { removeCompanyManager(usuario_id: $id) { __typename } }`,
    allowed: ["gestor"],
    variables: (w) => ({ id: w.secondManager }),
  },
  {
    operation: `query ($id: Int) { affiliationHistory(conductor_id: $id) { __typename } }`,
    allowed: ["gestor", "administrador"],
    variables: (w) => ({ id: w.driver }),
  },
  {
    operation: `mutation ($email: String!) { inviteDriver(email: $email) { __typename } }`,
    // Each manager of an operating company invites to their own company.
    allowed: ["gestor", "gestor de otra empresa"],
    variables: () => ({ email: uniqueEmail("invitado") }),
  },
  {
    operation: `mutation ($input: ManagerInput!) { inviteCompanyManager(input: $input) { __typename } }`,
    allowed: ["gestor", "gestor de otra empresa"],
    variables: () => ({ input: { email: uniqueEmail("nuevo.gestor"), nombre: "Nuevo", apellido: "Gestor", telefono: "3001112233" } }),
  },
  {
    operation: `query ($e: Int) { companyBalance(empresa_id: $e) { __typename } }`,
    allowed: ["gestor", "administrador"],
    variables: (w) => ({ e: w.company }),
  },
  {
    operation: `query ($e: Int) { companyMovements(empresa_id: $e) { __typename } }`,
    allowed: ["gestor", "administrador"],
    variables: (w) => ({ e: w.company }),
  },
  // Named by nobody, a company's money is the calling manager's company's: anyone else is refused,
  // never answered with money of their own.
  {
    operation: `{ companyBalance { __typename } }`,
    allowed: ["gestor", "gestor de otra empresa"],
    variables: () => ({}),
  },
  {
    operation: `{ companyMovements { __typename } }`,
    allowed: ["gestor", "gestor de otra empresa"],
    variables: () => ({}),
  },
  // And a driver's money is a driver's: a manager does not read the company's through it.
  {
    operation: `{ driverMovements { __typename } }`,
    allowed: ["conductor", "administrador"],
    variables: () => ({}),
  },
  {
    operation: `query ($e: Int) { payouts(empresa_id: $e) { __typename } }`,
    allowed: ["gestor", "administrador"],
    variables: (w) => ({ e: w.company }),
  },
  {
    operation: `mutation ($e: Int) { adjustBalance(empresa_id: $e, monto: 1000, motivo: "Corrección") { __typename } }`,
    allowed: ["administrador"],
    variables: (w) => ({ e: w.company }),
  },
  { operation: `query ($id: Int!) { company(id: $id) { __typename } }`, allowed: ["administrador"], variables: (w) => ({ id: w.company }) },
  { operation: `{ companies { __typename } }`, allowed: ["administrador"], variables: () => ({}) },
  {
    operation: `mutation ($id: Int!) { updateCompany(id: $id, input: { telefono: "6041234567" }) { __typename } }`,
    allowed: ["administrador"],
    variables: (w) => ({ id: w.company }),
  },
  {
    operation: `mutation ($nit: String!) { createCompany(input: { nombre: "Nueva", nit: $nit }) { __typename } }`,
    allowed: ["administrador"],
    variables: () => ({ nit: freshNit() }),
  },
  {
    operation: `mutation ($id: Int!) { setCompanyShare(id: $id, porcentaje: 20) { __typename } }`,
    allowed: ["administrador"],
    variables: (w) => ({ id: w.company }),
  },
  {
    operation: `mutation ($id: Int!) { approveCompany(id: $id) { __typename } }`,
    allowed: ["administrador"],
    variables: (w) => ({ id: w.company }),
  },
  {
    operation: `mutation ($e: Int!) { requestCompanyAffiliation(empresa_id: $e) { __typename } }`,
    allowed: ["conductor"],
    variables: (w) => ({ e: w.company }),
  },
  { operation: `{ myCompany { __typename } }`, allowed: ["gestor", "gestor de otra empresa", "gestor en revisión"], variables: () => ({}) },
  {
    operation: `query ($e: Int) { companyDrivers(empresa_id: $e) { __typename ... on Error { code } } }`,
    allowed: ["gestor", "administrador"],
    variables: (w) => ({ e: w.company }),
  },
  {
    operation: `query ($id: Int!, $e: Int) { companyDriver(conductor_id: $id, empresa_id: $e) { __typename ... on Error { code } } }`,
    allowed: ["gestor", "administrador"],
    variables: (w) => ({ id: w.driver, e: w.company }),
  },
  {
    operation: `query ($e: Int) { companyTrips(empresa_id: $e) { __typename ... on Error { code } } }`,
    allowed: ["gestor", "administrador"],
    variables: (w) => ({ e: w.company }),
  },
  {
    operation: `query ($e: Int) { companyFigures(empresa_id: $e) { __typename ... on Error { code } } }`,
    allowed: ["gestor", "administrador"],
    variables: (w) => ({ e: w.company }),
  },
  {
    operation: `query ($e: Int) { companyReservations(empresa_id: $e) { __typename ... on Error { code } } }`,
    allowed: ["gestor", "administrador"],
    variables: (w) => ({ e: w.company }),
  },
];

async function outcome(query: string, variables: Record<string, unknown>, as: number | null): Promise<string> {
  const { status, data, errors } = await app.graphql(query, variables, as ?? undefined);
  if (status === 401) return "401";
  if (errors) throw new Error(JSON.stringify(errors));
  return (Object.values(data)[0] as { __typename: string }).__typename;
}

describe("company operations, role by role", () => {
  for (const row of ROWS) {
    it(row.operation.replace(/\s+/g, " ").slice(0, 90), async () => {
      for (const role of ROLES) {
        // A fresh world per role: an allowed call must not spend what the next role is checked against.
        const w = await world();
        const result = await outcome(row.operation, row.variables(w), w.ids[role]);
        if (row.allowed.includes(role)) expect(result, role).not.toMatch(/^401$|Error$/);
        else expect(result, role).toMatch(role === "anónimo" ? /^401$/ : /Error$/);
      }
    });
  }

  it("liveOperations naming company A, over graphql-ws", async () => {
    const live = `subscription ($e: Int) { liveOperations(empresa_id: $e) { salidas } }`;
    for (const role of ROLES) {
      const w = await world();
      const id = w.ids[role];
      const client = await connect(port, id === null ? {} : await app.bearer(id)).catch(() => null);
      const first =
        client &&
        (await subscribe(client, live, { e: w.company })).next().then(
          () => "enviado",
          () => "rechazado",
        );
      const result = (await first) ?? "rechazado";
      await client?.dispose();
      expect(result, role).toBe(role === "gestor" || role === "administrador" ? "enviado" : "rechazado");
    }
  });

  it("never makes a legacy caller-sent id a company manager", async () => {
    const w = await world();
    const namedByIds = {
      kind: "member",
      id: w.ids.gestor!,
      role: "empresa",
      admin: false,
      via: "ids",
      session: null,
      actingAdminId: null,
      address: null,
    } as const;
    await expect(managersCompany(app.server.deps, namedByIds)).rejects.toMatchObject({ code: "FORBIDDEN" });
    const withToken = { ...namedByIds, via: "token" } as const;
    await expect(managersCompany(app.server.deps, withToken)).resolves.toMatchObject({ id: w.company });
  });
});
