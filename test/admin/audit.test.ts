import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, SIGN_IN_REQUIRED, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { newAdmin, newDriver, submittedDriver } from "../support/drivers.js";
import { registerUser } from "../support/fixtures.js";

// The deployed app's files named here (lib/src/…) are in https://github.com/Braian551/pingo/tree/35be6b2751ba54667ec1437fc46cd3a8ee79fd51.

let app: TestApp;
let admin: { id: number };
const clock = new FixedClock("2026-03-10T15:00:00.000Z");
beforeAll(async () => {
  app = await createTestApp({ clock, env: { TRUST_PROXY_HOPS: "1" } });
  admin = await newAdmin(app);
});
afterAll(() => app.close());

// One trusted proxy: the last X-Forwarded-For entry is the client; the one before is the client's own claim.
const FORWARDED = { "x-forwarded-for": "203.0.113.50, 198.51.100.7" };
const CLIENT = "198.51.100.7";

type Row = Awaited<ReturnType<TestApp["db"]["auditEntry"]["findMany"]>>[number];

/** The audit entries written while `act` runs, oldest first, with `detalles` parsed. */
async function recorded(act: () => Promise<unknown>) {
  const before = (await app.db.auditEntry.aggregate({ _max: { id: true } }))._max.id ?? 0;
  await act();
  const rows = await app.db.auditEntry.findMany({ where: { id: { gt: before } }, orderBy: { id: "asc" } });
  return rows.map((row: Row) => ({ ...row, detalles: row.detalles === null ? null : JSON.parse(row.detalles) }));
}

/** The one entry `act` should write, at the clock's `instant`. */
async function entryOf(instant: string, act: () => Promise<{ status?: number }>) {
  clock.set(instant);
  return recorded(async () => {
    const response = await act();
    if (response.status !== undefined) expect(response.status, JSON.stringify(response)).toBe(200);
  });
}

const entry = (instant: string, fields: Record<string, unknown>) => ({
  id: expect.any(Number),
  admin_id: admin.id,
  via: "ids",
  detalles: null,
  direccion_ip: CLIENT,
  creado_en: new Date(instant),
  ...fields,
});

const legacy = (method: string, path: string, body: Record<string, unknown>, headers: Record<string, string> = FORWARDED) =>
  app.legacy(method, path, body, headers);

/** GraphQL as `userId` (if any), through the trusted proxy unless told otherwise. */
async function gql(query: string, variables: Record<string, unknown>, userId?: number, headers: Record<string, string> = FORWARDED) {
  const auth = userId === undefined ? {} : await app.bearer(userId);
  const response = await app.server.fetch(
    new Request("http://test/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", ...auth, ...headers },
      body: JSON.stringify({ query, variables }),
    }),
  );
  return { status: response.status, ...(await response.json()) } as { status: number; data: any };
}

const LOG = `query (
  $page: Int, $per_page: Int, $accion: AccionAuditoria, $admin_id: Int, $objetivo_tipo: ObjetivoAuditoria, $objetivo_id: Int,
  $desde: String, $hasta: String, $search: String, $sort: OrdenAuditoria, $order: Orden
) {
  auditLog(
    page: $page, per_page: $per_page, accion: $accion, admin_id: $admin_id, objetivo_tipo: $objetivo_tipo,
    objetivo_id: $objetivo_id, desde: $desde, hasta: $hasta, search: $search, sort: $sort, order: $order
  ) {
    __typename
    ... on PaginaAuditoria {
      items { id admin_id via accion objetivo_tipo objetivo_id detalles direccion_ip creado_en }
      pagination { page per_page total total_pages }
    }
    ... on Error { code message }
    ... on ValidationError { field }
  }
}`;
const auditLog = async (filters: Record<string, unknown> = {}, userId: number | null = admin.id) =>
  (await app.graphql(LOG, filters, userId ?? undefined)).data.auditLog;
const idsOf = async (filters: Record<string, unknown>) =>
  (await auditLog({ per_page: 100, ...filters })).items.map((e: { id: number }) => e.id);

describe("the audit log records", () => {
  it("every administrator action on users and drivers once: who, what, target, when and from where", async () => {
    const [approved, rejected] = [await submittedDriver(app), await submittedDriver(app)];
    const user = await registerUser(app);
    const as = { admin_id: admin.id };
    const cases: Array<[string, () => Promise<{ status: number }>, Record<string, unknown>]> = [
      [
        "2026-03-10T15:01:00.000Z",
        () => legacy("POST", "/admin/aprobar_conductor.php", { ...as, conductor_id: approved.id }),
        { accion: "aprobar_conductor", objetivo_tipo: "conductor", objetivo_id: approved.id },
      ],
      [
        "2026-03-10T15:02:00.000Z",
        () => legacy("POST", "/admin/rechazar_conductor.php", { ...as, conductor_id: rejected.id, motivo: "SOAT ilegible" }),
        { accion: "rechazar_conductor", objetivo_tipo: "conductor", objetivo_id: rejected.id, detalles: { motivo: "SOAT ilegible" } },
      ],
      [
        "2026-03-10T15:03:00.000Z",
        () => legacy("POST", "/admin/suspender_usuario.php", { ...as, user_id: user.id, motivo: "Spam" }),
        { accion: "suspender_usuario", objetivo_tipo: "usuario", objetivo_id: user.id, detalles: { motivo: "Spam" } },
      ],
      [
        "2026-03-10T15:04:00.000Z",
        () => legacy("POST", "/admin/activar_usuario.php", { ...as, user_id: user.id }),
        { accion: "activar_usuario", objetivo_tipo: "usuario", objetivo_id: user.id },
      ],
      [
        "2026-03-10T15:05:00.000Z",
        () => legacy("PUT", "/admin/user_management.php", { ...as, user_id: user.id, telefono: "3011112222", es_verificado: 1 }),
        {
          accion: "actualizar_usuario",
          objetivo_tipo: "usuario",
          objetivo_id: user.id,
          detalles: { telefono: "3011112222", es_verificado: true },
        },
      ],
      [
        "2026-03-10T15:06:00.000Z",
        () => legacy("DELETE", "/admin/user_management.php", { ...as, user_id: user.id }),
        { accion: "eliminar_usuario", objetivo_tipo: "usuario", objetivo_id: user.id, detalles: { tipo_usuario: "pasajero" } },
      ],
    ];
    for (const [instant, act, fields] of cases) {
      expect.soft(await entryOf(instant, act), String(fields.accion)).toEqual([entry(instant, fields)]);
    }
  });

  it("rate changes and company creation, changes and deletion over GraphQL, with the token's administrator", async () => {
    const rate = await app.db.pricingRate.findUniqueOrThrow({ where: { tipo_vehiculo: "moto" } });
    const changeRate = `mutation ($input: PricingRateInput!) { updatePricingRate(input: $input) { __typename } }`;
    const viaToken = (instant: string, fields: Record<string, unknown>) => entry(instant, { via: "token", ...fields });
    const rateEntry = await entryOf("2026-03-10T16:00:00.000Z", () =>
      gql(changeRate, { input: { tipo_vehiculo: "moto", tarifa_base: 4200 } }, admin.id),
    );
    expect(rateEntry).toEqual([
      viaToken("2026-03-10T16:00:00.000Z", {
        accion: "actualizar_tarifa",
        objetivo_tipo: "tarifa",
        objetivo_id: rate.id,
        detalles: { tipo_vehiculo: "moto", tarifa_base: 4200 },
      }),
    ]);

    let companyId = 0;
    const created = await entryOf("2026-03-10T16:01:00.000Z", async () => {
      const { data } = await gql(
        `mutation ($input: CompanyInput!) { createCompany(input: $input) { ... on Empresa { id } } }`,
        { input: { nombre: "Auditada S.A.S.", nit: "900.555.111-2" } },
        admin.id,
      );
      companyId = data.createCompany.id;
      return {};
    });
    expect(created).toEqual([
      viaToken("2026-03-10T16:01:00.000Z", {
        accion: "crear_empresa",
        objetivo_tipo: "empresa",
        objetivo_id: companyId,
        detalles: { nombre: "Auditada S.A.S.", nit: "900555111-2" },
      }),
    ]);
    const updated = await entryOf("2026-03-10T16:02:00.000Z", () =>
      gql(`mutation ($id: Int!) { updateCompany(id: $id, input: { telefono: "6045551234" }) { __typename } }`, { id: companyId }, admin.id),
    );
    expect(updated).toEqual([
      viaToken("2026-03-10T16:02:00.000Z", {
        accion: "actualizar_empresa",
        objetivo_tipo: "empresa",
        objetivo_id: companyId,
        detalles: { telefono: "6045551234" },
      }),
    ]);
    // app.graphql sends no X-Forwarded-For and has no socket: no address is known.
    const deleted = await entryOf("2026-03-10T16:03:00.000Z", () =>
      app.graphql(`mutation ($id: Int!) { deleteCompany(id: $id) { __typename } }`, { id: companyId }, admin.id),
    );
    expect(deleted).toEqual([
      viaToken("2026-03-10T16:03:00.000Z", {
        accion: "eliminar_empresa",
        objetivo_tipo: "empresa",
        objetivo_id: companyId,
        direccion_ip: null,
        detalles: { nombre: "Auditada S.A.S.", nit: "900555111-2" },
      }),
    ]);
  });

  it("how the administrator was known: a token, the admin_id sent, or nobody (the specification's suspend)", async () => {
    const other = await newAdmin(app);
    const user = await registerUser(app);
    const instant = "2026-03-10T17:00:00.000Z";
    const withToken = await entryOf(instant, async () =>
      legacy(
        "POST",
        "/admin/suspender_usuario.php",
        { user_id: user.id, motivo: "Fraude" },
        { ...FORWARDED, ...(await app.bearer(other.id)) },
      ),
    );
    expect(withToken).toEqual([
      entry(instant, {
        admin_id: other.id,
        via: "token",
        accion: "suspender_usuario",
        objetivo_tipo: "usuario",
        objetivo_id: user.id,
        detalles: { motivo: "Fraude" },
      }),
    ]);
    const namedWithToken = await entryOf(instant, async () =>
      legacy(
        "POST",
        "/admin/activar_usuario.php",
        { admin_id: other.id, user_id: user.id },
        { ...FORWARDED, ...(await app.bearer(other.id)) },
      ),
    );
    expect(namedWithToken).toEqual([
      entry(instant, { admin_id: other.id, via: "token", accion: "activar_usuario", objetivo_tipo: "usuario", objetivo_id: user.id }),
    ]);
    const byIds = await entryOf(instant, () =>
      legacy("POST", "/admin/suspender_usuario.php", { admin_id: other.id, user_id: user.id, motivo: "Otra vez" }),
    );
    expect(byIds).toEqual([
      entry(instant, {
        admin_id: other.id,
        via: "ids",
        accion: "suspender_usuario",
        objetivo_tipo: "usuario",
        objetivo_id: user.id,
        detalles: { motivo: "Otra vez" },
      }),
    ]);
    const unnamed = await entryOf(instant, () =>
      legacy("POST", "/admin/suspender_usuario.php", { user_id: user.id, motivo: "Sin nombre" }),
    );
    expect(unnamed).toEqual([
      entry(instant, {
        admin_id: null,
        via: "ids",
        accion: "suspender_usuario",
        objetivo_tipo: "usuario",
        objetivo_id: user.id,
        detalles: { motivo: "Sin nombre" },
      }),
    ]);
  });

  it("nothing for an action that is refused or fails", async () => {
    const passenger = await registerUser(app);
    const target = await registerUser(app);
    const notSubmitted = await newDriver(app);
    const entries = await recorded(async () => {
      expect(
        (await legacy("POST", "/admin/suspender_usuario.php", { admin_id: passenger.id, user_id: target.id, motivo: "x" })).status,
      ).toBe(403);
      expect((await legacy("PUT", "/admin/user_management.php", { admin_id: passenger.id, user_id: target.id, nombre: "X" })).status).toBe(
        403,
      );
      const forbidden = await gql(`mutation ($id: Int!) { deleteUser(user_id: $id) { __typename } }`, { id: target.id }, passenger.id);
      expect(forbidden.data.deleteUser.__typename).toBe("ForbiddenError");
      const anonymous = await gql(`mutation { updatePricingRate(input: { tipo_vehiculo: auto, tarifa_base: 1 }) { __typename } }`, {});
      expect(anonymous).toMatchObject(SIGN_IN_REQUIRED);
      const approve = await legacy("POST", "/admin/aprobar_conductor.php", { admin_id: admin.id, conductor_id: notSubmitted.id });
      expect(approve.status).toBe(400);
      expect(
        (await legacy("PUT", "/admin/user_management.php", { admin_id: admin.id, user_id: target.id, empresa_id: 777777 })).status,
      ).toBe(404);
      expect((await legacy("POST", "/admin/suspender_usuario.php", { admin_id: admin.id, user_id: admin.id, motivo: "x" })).status).toBe(
        400,
      );
      const create = `mutation { createCompany(input: { nombre: "Duplicada", nit: "800999888-1" }) { __typename } }`;
      expect((await gql(create, {}, admin.id)).data.createCompany.__typename).toBe("Empresa");
      expect((await gql(create, {}, admin.id)).data.createCompany.__typename).toBe("ConflictError");
    });
    expect(entries.map((e) => e.accion)).toEqual(["crear_empresa"]);
  });
});

describe("auditLog", () => {
  it("is for administrators only", async () => {
    const passenger = await registerUser(app);
    expect(await app.graphql(LOG, {})).toMatchObject(SIGN_IN_REQUIRED);
    expect(await auditLog({}, passenger.id)).toMatchObject({ __typename: "ForbiddenError", code: "FORBIDDEN" });
    expect((await auditLog({})).__typename).toBe("PaginaAuditoria");
  });

  describe("listing", () => {
    let first: { id: number };
    let second: { id: number };
    let [e1, e2, e3, e4, c1, c2] = [0, 0, 0, 0, 0, 0];
    const company = async (userId: number, nit: string) =>
      (
        await gql(
          `mutation ($nit: String!) { createCompany(input: { nombre: "Listada", nit: $nit }) { ... on Empresa { id } } }`,
          { nit },
          userId,
        )
      ).data.createCompany.id as number;
    /** The id of the entry `act` writes at `instant`. */
    const at = async (instant: string, act: () => Promise<unknown>) => {
      clock.set(instant);
      const [written] = await recorded(act);
      return written!.id;
    };
    beforeAll(async () => {
      await app.db.auditEntry.deleteMany();
      [first, second] = [await newAdmin(app), await newAdmin(app)];
      // In Bogotá (UTC-5): 10:00 on the 10th, 23:30 on the 10th, 00:30 on the 11th, 10:00 on the 12th.
      e1 = await at("2026-03-10T15:00:00.000Z", async () => (c1 = await company(first.id, "700100200-1")));
      e2 = await at("2026-03-11T04:30:00.000Z", () =>
        gql(`mutation { updatePricingRate(input: { tipo_vehiculo: auto, precio_km: 1500 }) { __typename } }`, {}, first.id),
      );
      e3 = await at("2026-03-11T05:30:00.000Z", () =>
        gql(`mutation ($id: Int!) { updateCompany(id: $id, input: { nombre: "Renombrada" }) { __typename } }`, { id: c1 }, second.id),
      );
      e4 = await at("2026-03-12T15:00:00.000Z", async () => (c2 = await company(second.id, "700100300-2")));
    });

    it("pages newest first with the pagination totals", async () => {
      const page1 = await auditLog({ per_page: 3 });
      expect(page1.items.map((e: { id: number }) => e.id)).toEqual([e4, e3, e2]);
      expect(page1.pagination).toEqual({ page: 1, per_page: 3, total: 4, total_pages: 2 });
      expect(page1.items[0]).toMatchObject({
        admin_id: second.id,
        via: "token",
        accion: "crear_empresa",
        objetivo_tipo: "empresa",
        objetivo_id: c2,
        direccion_ip: CLIENT,
      });
      expect(JSON.parse(page1.items[0].detalles)).toEqual({ nombre: "Listada", nit: "700100300-2" });
      const page2 = await auditLog({ per_page: 3, page: 2 });
      expect(page2.items.map((e: { id: number }) => e.id)).toEqual([e1]);
      expect(page2.pagination).toEqual({ page: 2, per_page: 3, total: 4, total_pages: 2 });
      expect((await auditLog({ per_page: 3, page: 3 })).items).toEqual([]);
    });

    it("filters by action, administrator and target", async () => {
      expect(await idsOf({ accion: "crear_empresa" })).toEqual([e4, e1]);
      expect((await auditLog({ accion: "crear_empresa", per_page: 1 })).pagination).toEqual({
        page: 1,
        per_page: 1,
        total: 2,
        total_pages: 2,
      });
      expect(await idsOf({ admin_id: second.id })).toEqual([e4, e3]);
      expect(await idsOf({ objetivo_tipo: "empresa", objetivo_id: c1 })).toEqual([e3, e1]);
      expect(await idsOf({ objetivo_tipo: "tarifa" })).toEqual([e2]);
      expect(await idsOf({ accion: "crear_empresa", admin_id: first.id })).toEqual([e1]);
    });

    it("records the clock's time and filters by Bogotá days and instants", async () => {
      expect((await auditLog({ per_page: 4 })).items.map((e: { creado_en: string }) => e.creado_en)).toEqual([
        "2026-03-12T15:00:00.000Z",
        "2026-03-11T05:30:00.000Z",
        "2026-03-11T04:30:00.000Z",
        "2026-03-10T15:00:00.000Z",
      ]);
      expect(await idsOf({ hasta: "2026-03-10" }), "hasta a day includes all of it, Bogotá time").toEqual([e2, e1]);
      expect(await idsOf({ desde: "2026-03-11" }), "desde a day starts at 00:00 in Bogotá").toEqual([e4, e3]);
      expect(await idsOf({ desde: "2026-03-11", hasta: "2026-03-11" })).toEqual([e3]);
      expect(await idsOf({ desde: "2026-03-11T04:00:00Z", hasta: "2026-03-11T06:00:00Z" })).toEqual([e3, e2]);
    });

    it("searches what an entry says: its action's words (case and accents aside), its details, its target's id", async () => {
      expect(await idsOf({ search: "registro una EMPRESA" }), "crear_empresa: Registró una empresa").toEqual([e4, e1]);
      expect(await idsOf({ search: "tarifa" }), "actualizar_tarifa: Cambió la tarifa…").toEqual([e2]);
      expect(await idsOf({ search: "renombrada" }), "in the details").toEqual([e3]);
      expect(await idsOf({ search: "700100300" }), "in the details").toEqual([e4]);
      expect(await idsOf({ search: String(c1) }), "the target's id").toEqual(expect.arrayContaining([e3, e1]));
      expect(await idsOf({ search: "empresa", admin_id: first.id }), "with the other filters").toEqual([e1]);
      expect(await idsOf({ search: "nada de esto" })).toEqual([]);
    });

    it("sorts by date, id or action, newest first by default", async () => {
      expect(await idsOf({ order: "asc" })).toEqual([e1, e2, e3, e4]);
      expect(await idsOf({ sort: "id", order: "desc" })).toEqual([e4, e3, e2, e1]);
      // actualizar_empresa, actualizar_tarifa, crear_empresa (twice, by id in the same order).
      expect(await idsOf({ sort: "accion" })).toEqual([e3, e2, e1, e4]);
      expect(await idsOf({ sort: "accion", order: "desc" })).toEqual([e4, e1, e2, e3]);
    });
  });

  it("takes only the actions there are", async () => {
    const wrong = await app.graphql(LOG, { accion: "borrar_todo" }, admin.id);
    expect(wrong.errors?.[0]?.message).toMatch(/AccionAuditoria/);
  });
});

describe("GET /admin/audit_logs.php", () => {
  // lib/src/global/services/admin/admin_service.dart
  it("answers the log as pingo's AuditLogsScreen reads it, naming the administrator", async () => {
    // Later than every other entry of this file, so it comes first.
    clock.set("2027-01-05T10:00:00.000Z");
    const user = await registerUser(app);
    await app.legacy("POST", "/admin/suspender_usuario.php", { admin_id: admin.id, user_id: user.id, motivo: "Prueba" });
    const response = await app.legacy("GET", "/admin/audit_logs.php", { admin_id: String(admin.id), page: "1", per_page: "50" });
    expect(response.status).toBe(200);
    expect(response.body.data.logs).toEqual(response.body.logs);
    const [newest] = response.body.data.logs;
    const named = await app.db.user.findUniqueOrThrow({ where: { id: admin.id } });
    expect(newest).toMatchObject({
      accion: "suspender_usuario",
      descripcion: `Suspendió al usuario ${user.id}: Prueba`,
      nombre: named.nombre,
      apellido: named.apellido,
      email: named.email,
      fecha_creacion: "2027-01-05T10:00:00.000Z",
      user_agent: null,
    });
  });

  it("refuses an unknown action naming the field, as before actions were an enum", async () => {
    const response = await app.legacy("GET", "/admin/audit_logs.php", { admin_id: String(admin.id), accion: "borrar_todo" });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      message: expect.stringMatching(/^El campo 'accion' debe ser uno de: actualizar_usuario, eliminar_usuario, /),
    });
    const filtered = await app.legacy("GET", "/admin/audit_logs.php", { admin_id: String(admin.id), accion: "suspender_usuario" });
    const actions = new Set(filtered.body.logs.map((entry: { accion: string }) => entry.accion));
    expect(actions).toEqual(new Set(["suspender_usuario"]));
  });
});
