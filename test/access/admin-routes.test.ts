import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMINS_ONLY } from "../../src/domain/actor.js";
import { legacyRoutes } from "../../src/rest/routes/index.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { submittedDriver } from "../support/drivers.js";
import { registerUser } from "../support/fixtures.js";
import { createDriver } from "../support/trips.js";

/**
 * Every administrators' route (`/admin/*.php`, each alias too) against everyone who is not an
 * administrator, in both LEGACY_AUTH modes: a passenger, a driver and a company's account, each
 * with their own session and their own id, are refused with 403 and the administrators' message;
 * nobody at all is refused with 401. A route added under /admin/ without a row here fails the test.
 */

/** Who the refused calls act on: none of them may change, so one of each serves every call. */
interface Targets {
  passenger: number;
  applicant: number;
}

interface Row {
  input: (targets: Targets) => Record<string, unknown>;
  /** Money: an id in the call never stands for a session, in either mode (it is told to sign in, 401). */
  moneyNeedsSession?: true;
}

const ROWS: Record<string, Row> = {
  "GET /admin/user_management.php": { input: () => ({}) },
  "PUT /admin/user_management.php": { input: (t) => ({ user_id: t.passenger, nombre: "Otro" }) },
  "DELETE /admin/user_management.php": { input: (t) => ({ user_id: t.passenger }) },
  "POST /admin/suspender_usuario.php": { input: (t) => ({ user_id: t.passenger, motivo: "Fraude" }) },
  "POST /admin/activar_usuario.php": { input: (t) => ({ user_id: t.passenger }) },
  "GET /admin/pending_drivers.php": { input: () => ({}) },
  "POST /admin/aprobar_conductor.php": { input: (t) => ({ conductor_id: t.applicant }) },
  "POST /admin/rechazar_conductor.php": { input: (t) => ({ conductor_id: t.applicant, motivo: "Foto borrosa" }) },
  "GET /admin/get_conductores_documentos.php": { input: () => ({}) },
  "GET /admin/audit_logs.php": { input: () => ({}) },
  "GET /admin/dashboard_stats.php": { input: () => ({}) },
  "GET /admin/get_stats.php": { input: () => ({}) },
  "GET /admin/get_pricing_configs.php": { input: () => ({}) },
  "POST /admin/update_pricing_config.php": { input: () => ({ id: 1, tarifa_base: 4100 }) },
  "GET /admin/app_config.php": { input: () => ({}) },
  "PUT /admin/app_config.php": { input: () => ({ clave: "aviso_app", valor: "Mantenimiento el domingo" }) },
  "GET /admin/get_documentos_historial.php": { input: (t) => ({ conductor_id: t.applicant }) },
  "GET /admin/retiros.php": { input: () => ({}), moneyNeedsSession: true },
  // A payout that does not exist: the refusal comes before the lookup, so it says nothing of which exist.
  "POST /admin/retiros.php": { input: () => ({ accion: "aprobar", retiro_id: 1 }), moneyNeedsSession: true },
};

/** Every administrators' call the interface has, under each of its paths, with the field that names its caller. */
const ADMIN_CALLS = legacyRoutes.flatMap((route) =>
  [route.path, ...(route.aliases ?? [])]
    .filter((path) => path.startsWith("/admin/"))
    .map((path) => ({
      call: `${route.method} ${path}`,
      row: `${route.method} ${route.path}`,
      caller: route.caller,
      // The calls the specification gives no admin_id name their caller only when they choose to.
      callerRequired: route.caller !== undefined && !route.input.shape[route.caller]!.safeParse(undefined).success,
    })),
);

const ROLES = ["pasajero", "conductor", "empresa"] as const;
type Role = (typeof ROLES)[number];

async function call(app: TestApp, name: string, input: Record<string, unknown>, headers: Record<string, string>) {
  const [method, path] = name.split(" ") as [string, string];
  const sent = method === "GET" ? Object.fromEntries(Object.entries(input).map(([k, v]) => [k, String(v)])) : input;
  return app.legacy(method, path, sent, headers);
}

it("has a row for every administrators' route", () => {
  expect(ADMIN_CALLS.length).toBeGreaterThan(Object.keys(ROWS).length);
  expect([...new Set(ADMIN_CALLS.map(({ row }) => row))].sort()).toEqual(Object.keys(ROWS).sort());
});

describe.each(["token", "ids"] as const)("the administrators' routes with LEGACY_AUTH=%s", (mode) => {
  let app: TestApp;
  let targets: Targets;
  let people: Record<Role, number>;
  beforeAll(async () => {
    app = await createTestApp({ env: { LEGACY_AUTH: mode } });
    targets = { passenger: (await registerUser(app)).id, applicant: (await submittedDriver(app)).id };
    const company = await registerUser(app);
    await app.db.user.update({ where: { id: company.id }, data: { tipo_usuario: "empresa" } });
    people = { pasajero: (await registerUser(app)).id, conductor: (await createDriver(app)).id, empresa: company.id };
  });
  afterAll(() => app.close());

  it.each(ADMIN_CALLS.map((entry) => [entry.call, entry] as const))("%s", async (_name, { call: name, row, caller, callerRequired }) => {
    const { input, moneyNeedsSession } = ROWS[row]!;
    for (const role of ROLES) {
      const own = caller ? { [caller]: people[role] } : {};
      const withSession = await call(app, name, { ...input(targets), ...own }, await app.bearer(people[role]));
      expect(withSession.status, `${role}, with a session: ${JSON.stringify(withSession.body)}`).toBe(403);
      expect(withSession.body.success).toBe(false);
      expect(withSession.body.message).toMatch(new RegExp(`^${ADMINS_ONLY}`));
      // The specification's contract: the call's own id is who calls.
      if (mode === "ids" && caller) {
        const byId = await call(app, name, { ...input(targets), ...own }, {});
        expect(byId.status, `${role}, by id: ${JSON.stringify(byId.body)}`).toBe(moneyNeedsSession ? 401 : 403);
        expect(byId.body.success).toBe(false);
        if (!moneyNeedsSession) expect(byId.body.message).toMatch(new RegExp(`^${ADMINS_ONLY}`));
      }
    }
    // Nobody: no session, no id. With LEGACY_AUTH=ids a call missing its required admin_id lacks a
    // parameter (400, naming it), and the calls that may name nobody are trusted, as the specification has it.
    if (mode === "token" || (caller && !callerRequired && moneyNeedsSession)) {
      const nobody = await call(app, name, input(targets), {});
      expect(nobody.status, `nobody: ${JSON.stringify(nobody.body)}`).toBe(401);
      expect(nobody.body.success).toBe(false);
    } else if (callerRequired) {
      const nobody = await call(app, name, input(targets), {});
      expect(nobody.status, `nobody: ${JSON.stringify(nobody.body)}`).toBe(400);
      expect(nobody.body).toEqual({ success: false, message: `El campo '${caller}' es obligatorio` });
    }
    // Nothing a refused call touched has changed.
    expect(await app.db.user.findUniqueOrThrow({ where: { id: targets.passenger } })).toMatchObject({
      es_activo: true,
      eliminado_en: null,
    });
    expect(await app.db.driverProfile.findUniqueOrThrow({ where: { conductor_id: targets.applicant } })).toMatchObject({
      estado_revision: "en_revision",
    });
  });
});
