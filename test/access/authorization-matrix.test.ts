import { readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { driverAccount, PLATFORM, post } from "../../src/domain/money/ledger.js";
import { schema } from "../../src/graphql/schema.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { completeApplication, newAdmin, newDriver, submittedDriver } from "../support/drivers.js";
import { registerUser } from "../support/fixtures.js";
import { createDriver, ESTADIO, LLERAS } from "../support/trips.js";

/**
 * Who may call what, as a table: every role against every operation done to someone else's
 * object, on GraphQL and through the legacy interface in both LEGACY_AUTH modes. Each row names
 * the roles allowed; every other role must be refused (401 for nobody, 403 for somebody), and
 * every allowed role must succeed, so the rules are neither missing nor "deny all".
 */
const ROLES = ["anónimo", "pasajero", "conductor", "otro pasajero", "otro conductor", "administrador"] as const;
type Role = (typeof ROLES)[number];

/** What a row acts on: its passenger's and driver's own records, and the objects made for it. */
interface Target {
  pasajero: number;
  conductor: number;
  trip?: number;
  company?: number;
  notification?: number;
  /** The driver's payout account, and a payout of theirs. */
  account?: number;
  payout?: number;
  /** The passenger's emergency contact, and a link the passenger made to follow the trip. */
  contact?: number;
  link?: number;
  /** A place the passenger saved. */
  place?: number;
  /** A trip the passenger booked ahead. */
  booking?: number;
  /** A change of the trip's destination the passenger asked for. */
  change?: number;
}

/** People who own nothing the rows act on, and the administrator. */
interface Cast {
  otherPassenger: number;
  otherDriver: number;
  admin: number;
}

const idOf = (role: Role, target: Target, cast: Cast): number | null =>
  ({
    anónimo: null,
    pasajero: target.pasajero,
    conductor: target.conductor,
    "otro pasajero": cast.otherPassenger,
    "otro conductor": cast.otherDriver,
    administrador: cast.admin,
  })[role];

/** A GraphQL operation's one result; nobody signed in is refused before it runs (401), as the result's code says. */
async function gql(app: TestApp, query: string, variables: Record<string, unknown>, as: number | null) {
  const { status, data, errors } = await app.graphql(query, variables, as ?? undefined);
  if (status === 401 && errors?.[0]?.extensions?.code === "UNAUTHENTICATED") return { __typename: "401", code: "UNAUTHENTICATED" };
  if (errors) throw new Error(JSON.stringify(errors));
  return Object.values(data)[0] as { __typename: string; id?: number; code?: string };
}

/** Runs a setup step as a user and insists that it worked. */
async function step(app: TestApp, as: number, query: string, variables: Record<string, unknown> = {}) {
  const result = await gql(app, query, variables, as);
  expect(result.__typename, `${query}: ${JSON.stringify(result)}`).not.toMatch(/Error$/);
  return result;
}

// The objects rows act on, fresh for each allowed call (a refused call must change nothing).
const people = async (app: TestApp): Promise<Target> => ({
  pasajero: (await registerUser(app)).id,
  conductor: (await createDriver(app, { at: LLERAS })).id,
});

const TRIP_STEPS = {
  aceptado: `mutation ($id: Int!) { acceptTrip(trip_id: $id) { __typename } }`,
  en_curso: `mutation ($id: Int!) { startTrip(trip_id: $id) { __typename } }`,
  completado: `mutation ($id: Int!) { completeTrip(trip_id: $id, precio_final: 15000) { __typename } }`,
};

const tripIn =
  (state: "pendiente" | keyof typeof TRIP_STEPS) =>
  async (app: TestApp): Promise<Target> => {
    const target = await people(app);
    const trip = await step(
      app,
      target.pasajero,
      `mutation ($input: CreateTripInput!) { createTrip(input: $input) { __typename ... on Viaje { id } } }`,
      {
        input: { tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO },
      },
    );
    const steps = Object.entries(TRIP_STEPS);
    for (const [reached, mutation] of steps.slice(0, steps.findIndex(([name]) => name === state) + 1)) {
      await step(app, target.conductor, mutation, { id: trip.id });
      if (reached === state) break;
    }
    return { ...target, trip: trip.id };
  };

/** A trip under way with one stop, which its driver has reached when asked. */
const withStop =
  (reached: boolean) =>
  async (app: TestApp): Promise<Target> => {
    const target = await people(app);
    const input = { tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO, paradas: [{ latitud: 6.2446, longitud: -75.5969 }] };
    const trip = await step(
      app,
      target.pasajero,
      `mutation ($input: CreateTripInput!) { createTrip(input: $input) { __typename ... on Viaje { id } } }`,
      {
        input,
      },
    );
    for (const mutation of [TRIP_STEPS.aceptado, TRIP_STEPS.en_curso]) await step(app, target.conductor, mutation, { id: trip.id });
    if (reached) {
      await step(app, target.conductor, `mutation ($id: Int!) { arriveAtStop(trip_id: $id, orden: 1) { __typename } }`, { id: trip.id });
    }
    return { ...target, trip: trip.id };
  };

/** A trip under way whose passenger asked to go elsewhere: the change waits for the driver. */
const withChange = async (app: TestApp): Promise<Target> => {
  const target = await tripIn("en_curso")(app);
  const change = await step(
    app,
    target.pasajero,
    `mutation ($id: Int!) { requestTripChange(trip_id: $id, destino: { latitud: 6.2518, longitud: -75.5636 }) { __typename ... on CambioViaje { id } } }`,
    { id: target.trip },
  );
  return { ...target, change: change.id };
};

/** A trip the passenger booked for two days ahead, which the driver committed to when asked. */
const booked =
  (committed: boolean) =>
  async (app: TestApp): Promise<Target> => {
    const target = await people(app);
    const fecha_programada = new Date(Date.now() + 2 * 24 * 3600_000).toISOString();
    const booking = await step(
      app,
      target.pasajero,
      `mutation ($input: ReservaInput!) { bookTrip(input: $input) { __typename ... on Reserva { id } } }`,
      { input: { tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO, fecha_programada } },
    );
    if (committed) {
      await step(app, target.conductor, `mutation ($id: Int!) { commitToReservation(reserva_id: $id) { __typename } }`, { id: booking.id });
    }
    return { ...target, booking: booking.id };
  };

const applicant = async (app: TestApp): Promise<Target> => {
  const driver = await newDriver(app);
  await completeApplication(app, driver.id);
  return { pasajero: (await registerUser(app)).id, conductor: driver.id };
};
const submitted = async (app: TestApp): Promise<Target> => ({
  pasajero: (await registerUser(app)).id,
  conductor: (await submittedDriver(app)).id,
});
const withCompany = async (app: TestApp): Promise<Target> => ({
  ...(await people(app)),
  company: (await app.db.company.create({ data: { nombre: "Flota", nit: String(Date.now() % 1e9).padStart(9, "1") } })).id,
});
const withNotification = async (app: TestApp): Promise<Target> => {
  const target = await people(app);
  // Signing up left the passenger a welcome notification.
  const notice = await app.db.notification.findFirstOrThrow({ where: { usuario_id: target.pasajero } });
  return { ...target, notification: notice.id };
};

/** A driver with a payout account (verified or not), and with money and an open payout when asked. */
const withMoney =
  (stage: "account" | "verified account" | "payout") =>
  async (app: TestApp): Promise<Target> => {
    const target = await people(app);
    const account = await app.db.payoutAccount.create({
      data: { conductor_id: target.conductor, tipo: "efectivo", verificada_en: stage === "account" ? null : new Date() },
    });
    if (stage === "account") return { ...target, account: account.id };
    await app.db.$transaction((tx) =>
      post(tx, new Date(), {
        clave: `ajuste:${randomUUID()}`,
        tipo: "ajuste",
        descripcion: "Saldo de prueba",
        lines: [
          { account: driverAccount(target.conductor), concepto: "ajuste", monto: 50_000 },
          { account: PLATFORM.adjustments, concepto: "ajuste", monto: -50_000 },
        ],
      }),
    );
    if (stage === "verified account") return { ...target, account: account.id };
    const payout = await step(
      app,
      target.conductor,
      `mutation ($id: Int!) { requestPayout(monto: 30000, cuenta_retiro_id: $id) { __typename ... on Retiro { id } } }`,
      { id: account.id },
    );
    return { ...target, account: account.id, payout: payout.id };
  };

/** The passenger with an emergency contact. */
const withContact = async (app: TestApp): Promise<Target> => {
  const target = await people(app);
  const contact = await app.db.emergencyContact.create({
    data: { usuario_id: target.pasajero, nombre: "Marta", telefono: "3001234567", creado_en: new Date() },
  });
  return { ...target, contact: contact.id };
};

const withPlace = async (app: TestApp): Promise<Target> => {
  const target = await people(app);
  const place = await app.db.savedPlace.create({
    data: {
      usuario_id: target.pasajero,
      tipo: "casa",
      nombre: "Casa",
      direccion: "Calle 10 # 43-12",
      latitud: 6.2,
      longitud: -75.56,
      creado_en: new Date(),
    },
  });
  return { ...target, place: place.id };
};

/** An accepted trip the passenger made a link to follow. */
const withLink = async (app: TestApp): Promise<Target> => {
  const target = await tripIn("aceptado")(app);
  const link = await step(
    app,
    target.pasajero,
    `mutation ($id: Int!) { shareTrip(trip_id: $id) { __typename ... on EnlaceSeguimiento { id } } }`,
    {
      id: target.trip,
    },
  );
  return { ...target, link: link.id };
};

async function castFor(app: TestApp): Promise<Cast> {
  return { otherPassenger: (await registerUser(app)).id, otherDriver: (await createDriver(app)).id, admin: (await newAdmin(app)).id };
}

/** Runs a row: refused roles against one object, each allowed role against a fresh one. */
async function runRow<R>(
  app: TestApp,
  row: { target: (app: TestApp) => Promise<Target>; allowed: readonly Role[]; roles?: readonly Role[] },
  call: (role: Role, target: Target) => Promise<R>,
  check: (role: Role, outcome: R, allowed: boolean) => void,
) {
  const roles = row.roles ?? ROLES;
  const shared = await row.target(app);
  for (const role of roles.filter((r) => !row.allowed.includes(r))) check(role, await call(role, shared), false);
  for (const role of roles.filter((r) => row.allowed.includes(r))) check(role, await call(role, await row.target(app)), true);
}

// ---------------------------------------------------------------------------------------------
// The legacy interface

interface LegacyRow {
  call: string;
  target: (app: TestApp) => Promise<Target>;
  allowed: readonly Role[];
  input: (target: Target, cast: Cast) => Record<string, unknown>;
  multipart?: true;
  /** Money: the caller's token is needed in every LEGACY_AUTH mode; an id in the body never stands for it. */
  tokenOnly?: true;
}

const LEGACY: LegacyRow[] = [
  {
    call: "GET /conductor/get_saldo.php",
    target: people,
    allowed: ["conductor", "administrador"],
    tokenOnly: true,
    input: (t) => ({ conductor_id: t.conductor }),
  },
  {
    call: "POST /conductor/solicitar_retiro.php",
    target: withMoney("verified account"),
    allowed: ["conductor"],
    tokenOnly: true,
    input: (t) => ({ conductor_id: t.conductor, monto: 20_000, cuenta_retiro_id: t.account }),
  },
  {
    call: "GET /admin/retiros.php",
    target: people,
    allowed: ["administrador"],
    tokenOnly: true,
    input: (_t, c) => ({ admin_id: c.admin }),
  },
  {
    call: "POST /admin/retiros.php",
    target: withMoney("payout"),
    allowed: ["administrador"],
    tokenOnly: true,
    input: (t, c) => ({ admin_id: c.admin, accion: "aprobar", retiro_id: t.payout }),
  },
  { call: "GET /auth/profile.php", target: people, allowed: ["pasajero", "administrador"], input: (t) => ({ userId: t.pasajero }) },
  {
    call: "POST /auth/profile_update.php",
    target: people,
    allowed: ["pasajero", "administrador"],
    input: (t) => ({ userId: t.pasajero, name: "Nuevo" }),
  },
  {
    call: "POST /viajes/create_trip.php",
    target: people,
    allowed: ["pasajero", "administrador"],
    input: (t) => ({ usuario_id: t.pasajero, tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO }),
  },
  {
    call: "POST /pricing/calculate_quote.php",
    target: people,
    allowed: ["pasajero", "administrador"],
    input: (t) => ({
      usuario_id: t.pasajero,
      tipo_servicio: "auto",
      latitud_origen: LLERAS.latitud,
      longitud_origen: LLERAS.longitud,
      latitud_destino: ESTADIO.latitud,
      longitud_destino: ESTADIO.longitud,
    }),
  },
  {
    call: "POST /user/create_trip_request.php",
    target: people,
    allowed: ["pasajero", "administrador"],
    input: (t) => ({
      usuario_id: t.pasajero,
      tipo_servicio: "auto",
      latitud_origen: LLERAS.latitud,
      longitud_origen: LLERAS.longitud,
      latitud_destino: ESTADIO.latitud,
      longitud_destino: ESTADIO.longitud,
    }),
  },
  {
    call: "GET /viajes/get_trip.php",
    target: tripIn("aceptado"),
    allowed: ["pasajero", "conductor", "administrador"],
    input: (t) => ({ trip_id: t.trip }),
  },
  {
    call: "POST /viajes/accept_trip.php",
    target: tripIn("pendiente"),
    allowed: ["conductor", "administrador"],
    input: (t) => ({ trip_id: t.trip, conductor_id: t.conductor }),
  },
  { call: "POST /viajes/start_trip.php", target: tripIn("aceptado"), allowed: ["conductor"], input: (t) => ({ trip_id: t.trip }) },
  {
    call: "POST /viajes/complete_trip.php",
    target: tripIn("en_curso"),
    allowed: ["conductor"],
    input: (t) => ({ trip_id: t.trip, precio_final: 1 }),
  },
  {
    call: "POST /viajes/cancel_trip.php",
    target: tripIn("aceptado"),
    allowed: ["pasajero", "conductor", "administrador"],
    input: (t) => ({ trip_id: t.trip, motivo: "Cambio de planes" }),
  },
  {
    call: "POST /viajes/rate_conductor.php",
    target: tripIn("completado"),
    allowed: ["pasajero"],
    input: (t) => ({ trip_id: t.trip, calificacion: 1 }),
  },
  {
    call: "POST /viajes/rate_user.php",
    target: tripIn("completado"),
    allowed: ["conductor"],
    input: (t) => ({ trip_id: t.trip, calificacion: 1 }),
  },
  {
    call: "GET /viajes/get_active_trips.php",
    target: tripIn("aceptado"),
    allowed: ["pasajero", "administrador"],
    input: (t) => ({ usuario_id: t.pasajero }),
  },
  {
    call: "GET /viajes/get_trip_history.php",
    target: tripIn("completado"),
    allowed: ["pasajero", "administrador"],
    input: (t) => ({ usuario_id: t.pasajero }),
  },
  {
    call: "GET /viajes/get_conductor_active_trips.php",
    target: tripIn("aceptado"),
    allowed: ["conductor", "administrador"],
    input: (t) => ({ conductor_id: t.conductor }),
  },
  {
    call: "GET /viajes/get_conductor_history.php",
    target: tripIn("completado"),
    allowed: ["conductor", "administrador"],
    input: (t) => ({ conductor_id: t.conductor }),
  },
  {
    call: "POST /conductor/update_location.php",
    target: people,
    allowed: ["conductor", "administrador"],
    input: (t) => ({ conductor_id: t.conductor, latitud: LLERAS.latitud, longitud: LLERAS.longitud, disponibilidad: 1 }),
  },
  {
    call: "POST /conductor/actualizar_disponibilidad.php",
    target: people,
    allowed: ["conductor", "administrador"],
    input: (t) => ({ conductor_id: t.conductor, disponible: 0 }),
  },
  {
    call: "POST /conductor/get_solicitudes_pendientes.php",
    target: people,
    allowed: ["conductor", "administrador"],
    input: (t) => ({ conductor_id: t.conductor, latitud_actual: LLERAS.latitud, longitud_actual: LLERAS.longitud, radio_km: 5.0 }),
  },
  { call: "GET /admin/audit_logs.php", target: people, allowed: ["administrador"], input: (_t, c) => ({ admin_id: c.admin }) },
  {
    call: "GET /admin/get_conductores_documentos.php",
    target: people,
    allowed: ["administrador"],
    input: (_t, c) => ({ admin_id: c.admin }),
  },
  {
    call: "GET /conductor/get_profile.php",
    target: people,
    allowed: ["conductor", "administrador"],
    input: (t) => ({ conductor_id: t.conductor }),
  },
  {
    call: "POST /conductor/update_profile.php",
    target: people,
    allowed: ["conductor", "administrador"],
    input: (t) => ({ conductor_id: t.conductor, direccion: "Calle 1" }),
  },
  {
    call: "POST /conductor/update_vehicle.php",
    target: people,
    allowed: ["conductor", "administrador"],
    input: (t) => ({ conductor_id: t.conductor, vehiculo_color: "Azul" }),
  },
  {
    call: "POST /conductor/update_license.php",
    target: people,
    allowed: ["conductor", "administrador"],
    input: (t) => ({ conductor_id: t.conductor, tipo: "B2" }),
  },
  {
    call: "POST /conductor/upload_documents.php",
    target: people,
    allowed: ["conductor", "administrador"],
    multipart: true,
    input: (t) => ({ conductor_id: t.conductor, tipo_documento: "soat" }),
  },
  {
    call: "POST /conductor/submit_for_approval.php",
    target: applicant,
    allowed: ["conductor", "administrador"],
    input: (t) => ({ conductor_id: t.conductor }),
  },
  {
    call: "GET /conductor/verification_status.php",
    target: people,
    allowed: ["conductor", "administrador"],
    input: (t) => ({ conductor_id: t.conductor }),
  },
  {
    call: "GET /conductor/get_earnings.php",
    target: people,
    allowed: ["conductor", "administrador"],
    input: (t) => ({ conductor_id: t.conductor, periodo: "mes" }),
  },
  {
    call: "GET /conductor/get_statistics.php",
    target: people,
    allowed: ["conductor", "administrador"],
    input: (t) => ({ conductor_id: t.conductor }),
  },
  {
    call: "GET /user/get_trip_status.php",
    target: tripIn("aceptado"),
    allowed: ["pasajero", "conductor", "administrador"],
    input: (t) => ({ solicitud_id: t.trip }),
  },
  {
    call: "GET /conductor/get_info.php",
    target: people,
    allowed: ["conductor", "administrador"],
    input: (t) => ({ conductor_id: t.conductor }),
  },
  {
    call: "GET /conductor/get_viaje_detalle.php",
    target: tripIn("aceptado"),
    allowed: ["conductor", "administrador"],
    input: (t) => ({ conductor_id: t.conductor, viaje_id: t.trip }),
  },
  { call: "GET /admin/user_management.php", target: people, allowed: ["administrador"], input: (_t, c) => ({ admin_id: c.admin }) },
  {
    call: "PUT /admin/user_management.php",
    target: people,
    allowed: ["administrador"],
    input: (t, c) => ({ admin_id: c.admin, user_id: t.pasajero, nombre: "Otro" }),
  },
  {
    call: "DELETE /admin/user_management.php",
    target: people,
    allowed: ["administrador"],
    input: (t, c) => ({ admin_id: c.admin, user_id: t.pasajero }),
  },
  {
    call: "POST /admin/suspender_usuario.php",
    target: people,
    allowed: ["administrador"],
    input: (t) => ({ user_id: t.pasajero, motivo: "Fraude" }),
  },
  { call: "POST /admin/activar_usuario.php", target: people, allowed: ["administrador"], input: (t) => ({ user_id: t.pasajero }) },
  { call: "GET /admin/pending_drivers.php", target: people, allowed: ["administrador"], input: (_t, c) => ({ admin_id: c.admin }) },
  {
    call: "POST /admin/aprobar_conductor.php",
    target: submitted,
    allowed: ["administrador"],
    input: (t) => ({ conductor_id: t.conductor }),
  },
  {
    call: "POST /admin/rechazar_conductor.php",
    target: submitted,
    allowed: ["administrador"],
    input: (t) => ({ conductor_id: t.conductor, motivo: "Foto borrosa" }),
  },
  { call: "GET /admin/dashboard_stats.php", target: people, allowed: ["administrador"], input: (_t, c) => ({ admin_id: c.admin }) },
  { call: "GET /admin/get_stats.php", target: people, allowed: ["administrador"], input: (_t, c) => ({ admin_id: c.admin }) },
  { call: "GET /admin/get_pricing_configs.php", target: people, allowed: ["administrador"], input: (_t, c) => ({ admin_id: c.admin }) },
  {
    call: "POST /admin/update_pricing_config.php",
    target: people,
    allowed: ["administrador"],
    // The migrations install moto's rate first: id 1 on a fresh database.
    input: (_t, c) => ({ admin_id: c.admin, id: 1, tarifa_base: 4100 }),
  },
  { call: "GET /admin/app_config.php", target: people, allowed: ["administrador"], input: (_t, c) => ({ admin_id: c.admin }) },
  {
    call: "GET /admin/app_config.php",
    target: people,
    // The public settings are for anyone; with LEGACY_AUTH=token, anyone with a session.
    allowed: ["pasajero", "conductor", "otro pasajero", "otro conductor", "administrador"],
    input: () => ({ public: 1 }),
  },
  {
    call: "PUT /admin/app_config.php",
    target: people,
    allowed: ["administrador"],
    input: (_t, c) => ({ admin_id: c.admin, clave: "aviso_app", valor: "Mantenimiento el domingo" }),
  },
  {
    call: "GET /user/contactos_emergencia.php",
    target: people,
    allowed: ["pasajero", "administrador"],
    input: (t) => ({ usuario_id: t.pasajero }),
  },
  {
    call: "POST /user/contactos_emergencia.php",
    target: people,
    allowed: ["pasajero", "administrador"],
    input: (t) => ({ usuario_id: t.pasajero, nombre: "Marta", telefono: "3001234567" }),
  },
  {
    call: "DELETE /user/contactos_emergencia.php",
    target: withContact,
    allowed: ["pasajero", "administrador"],
    input: (t) => ({ usuario_id: t.pasajero, contacto_id: t.contact }),
  },
  {
    call: "GET /user/lugares_favoritos.php",
    target: people,
    allowed: ["pasajero", "administrador"],
    input: (t) => ({ usuario_id: t.pasajero }),
  },
  {
    call: "POST /user/lugares_favoritos.php",
    target: people,
    allowed: ["pasajero", "administrador"],
    input: (t) => ({ usuario_id: t.pasajero, tipo: "casa", direccion: "Calle 10 # 43-12", latitud: 6.2, longitud: -75.56 }),
  },
  {
    call: "DELETE /user/lugares_favoritos.php",
    target: withPlace,
    allowed: ["pasajero", "administrador"],
    input: (t) => ({ usuario_id: t.pasajero, lugar_id: t.place }),
  },
  {
    call: "GET /admin/get_documentos_historial.php",
    target: people,
    allowed: ["administrador"],
    input: (t, c) => ({ admin_id: c.admin, conductor_id: t.conductor }),
  },
];

const PHOTO = readFileSync("test/fixtures/documento.png");

/** A legacy call with the given headers: the query string for GET, JSON or multipart otherwise. */
async function legacyCall(app: TestApp, row: LegacyRow, input: Record<string, unknown>, headers: Record<string, string>) {
  const [method, path] = row.call.split(" ") as [string, string];
  if (!row.multipart)
    return app.legacy(
      method,
      path,
      method === "GET" ? Object.fromEntries(Object.entries(input).map(([k, v]) => [k, String(v)])) : input,
      headers,
    );
  const form = new FormData();
  for (const [key, value] of Object.entries(input)) form.append(key, String(value));
  form.append("documento", new Blob([new Uint8Array(PHOTO)]), "soat.png");
  const response = await app.server.fetch(new Request(`http://test${path}`, { method, body: form, headers }));
  return { status: response.status, body: await response.json(), headers: response.headers };
}

function expectLegacy(row: LegacyRow, role: Role, response: { status: number; body: any }, allowed: boolean) {
  const where = `${row.call} as ${role}: ${response.status} ${JSON.stringify(response.body)}`;
  if (allowed) {
    expect(response.status, where).toBeLessThan(300);
    expect(response.body.success, where).toBe(true);
  } else {
    expect(response.status, where).toBe(role === "anónimo" ? 401 : 403);
    expect(response.body.success, where).toBe(false);
  }
}

/** Each role calls with its own token (none for the anonymous one) and the row's ids, which are other people's. */
async function legacyMatrix(app: TestApp, cast: Cast, row: LegacyRow) {
  await runRow(
    app,
    row,
    async (role, target) => {
      const id = idOf(role, target, cast);
      return legacyCall(app, row, row.input(target, cast), id === null ? {} : await app.bearer(id));
    },
    (role, response, allowed) => expectLegacy(row, role, response, allowed),
  );
}

describe.each(["token", "ids"] as const)("the legacy interface with LEGACY_AUTH=%s", (mode) => {
  let app: TestApp;
  let cast: Cast;
  beforeAll(async () => {
    app = await createTestApp({ env: { LEGACY_AUTH: mode } });
    cast = await castFor(app);
  });
  afterAll(() => app.close());

  // A token counts alike in both modes; without one, ids mode takes the call to be whoever its ids
  // name (or, for the calls that name nobody, trusts it): the specification's contract.
  it.each(LEGACY.map((row) => [row.call, row] as const))("%s", async (_name, row) => {
    await legacyMatrix(app, cast, mode === "ids" && !row.tokenOnly ? { ...row, allowed: [...row.allowed, "anónimo"] } : row);
  });
});

describe("the legacy interface with LEGACY_AUTH=ids, callers naming themselves", () => {
  let app: TestApp;
  let cast: Cast;
  beforeAll(async () => {
    app = await createTestApp({ env: { LEGACY_AUTH: "ids" } });
    cast = await castFor(app);
  });
  afterAll(() => app.close());

  const ADMIN_ROWS = LEGACY.filter(
    (row) => !row.tokenOnly && "admin_id" in row.input({ pasajero: 0, conductor: 0 }, { otherPassenger: 0, otherDriver: 0, admin: 0 }),
  );

  it.each(ADMIN_ROWS.map((row) => [row.call, row] as const))("%s needs its admin_id to be an administrator's", async (_name, row) => {
    const target = await row.target(app);
    for (const role of ["pasajero", "conductor", "otro pasajero", "otro conductor"] as const) {
      const response = await legacyCall(app, row, { ...row.input(target, cast), admin_id: idOf(role, target, cast) }, {});
      expect(response.status, `${role}: ${JSON.stringify(response.body)}`).toBe(403);
    }
    expectLegacy(row, "administrador", await legacyCall(app, row, row.input(target, cast), {}), true);
  });
});

// ---------------------------------------------------------------------------------------------
// GraphQL

interface GraphQLRow {
  field: string;
  target: (app: TestApp) => Promise<Target>;
  allowed: readonly Role[];
  /** Operations that act for whoever calls have no one else's object: only nobody and the owner are tried. */
  roles?: readonly Role[];
  /** A refusal other than ForbiddenError, for roles the operation does not apply to at all. */
  refusedAs?: Partial<Record<Role, string>>;
  query: string;
  variables?: (target: Target) => Record<string, unknown>;
}

const result = (field: string, args = "") => `${field}${args} { __typename ... on Error { code } }`;
const operation =
  (kind: "query" | "mutation") =>
  (field: string, args = "") =>
    `${kind} ${args.includes("$id") ? "($id: Int!)" : ""} { ${result(field, args)} }`;
const query = operation("query");
const mutation = operation("mutation");
const SELF = (owner: Role) => ["anónimo", owner] as const;
const NOT_DRIVERS = { pasajero: "NOT_FOUND", "otro pasajero": "NOT_FOUND", administrador: "NOT_FOUND" } as const;

/** Operations for drivers at work, tried by one driver: an administrator or a passenger is none. */
const DRIVER_ROLES = ["anónimo", "pasajero", "conductor", "administrador"] as const;

const GRAPHQL: GraphQLRow[] = [
  {
    field: "reservation",
    target: booked(true),
    allowed: ["pasajero", "conductor", "administrador"],
    query: query("reservation", "(reserva_id: $id)"),
    variables: (t) => ({ id: t.booking }),
  },
  { field: "myReservations", target: booked(false), allowed: ["pasajero"], roles: SELF("pasajero"), query: query("myReservations") },
  {
    field: "openReservations",
    target: booked(false),
    allowed: ["conductor"],
    roles: DRIVER_ROLES,
    query: query("openReservations", `(latitud: ${LLERAS.latitud}, longitud: ${LLERAS.longitud})`),
  },
  { field: "myCommitments", target: booked(true), allowed: ["conductor"], roles: DRIVER_ROLES, query: query("myCommitments") },
  { field: "reservations", target: booked(false), allowed: ["administrador"], query: query("reservations") },
  {
    field: "bookTrip",
    target: people,
    allowed: ["pasajero"],
    roles: SELF("pasajero"),
    query: mutation(
      "bookTrip",
      `(input: {
        tipo_servicio: auto,
        fecha_programada: "${new Date(Date.now() + 2 * 24 * 3600_000).toISOString()}",
        origen: { latitud: ${LLERAS.latitud}, longitud: ${LLERAS.longitud} },
        destino: { latitud: ${ESTADIO.latitud}, longitud: ${ESTADIO.longitud} }
      })`,
    ),
  },
  {
    field: "changeReservation",
    target: booked(false),
    allowed: ["pasajero"],
    query: mutation("changeReservation", "(reserva_id: $id, input: { metodo_pago: efectivo })"),
    variables: (t) => ({ id: t.booking }),
  },
  {
    field: "cancelReservation",
    target: booked(false),
    allowed: ["pasajero", "administrador"],
    query: mutation("cancelReservation", `(reserva_id: $id, motivo: "Prueba")`),
    variables: (t) => ({ id: t.booking }),
  },
  {
    field: "commitToReservation",
    target: booked(false),
    allowed: ["conductor"],
    roles: DRIVER_ROLES,
    query: mutation("commitToReservation", "(reserva_id: $id)"),
    variables: (t) => ({ id: t.booking }),
  },
  {
    field: "withdrawFromReservation",
    target: booked(true),
    allowed: ["conductor"],
    query: mutation("withdrawFromReservation", "(reserva_id: $id)"),
    variables: (t) => ({ id: t.booking }),
  },
  {
    field: "user",
    target: people,
    allowed: ["pasajero", "administrador"],
    query: query("user", "(userId: $id)"),
    variables: (t) => ({ id: t.pasajero }),
  },
  {
    field: "trip",
    target: tripIn("aceptado"),
    allowed: ["pasajero", "conductor", "administrador"],
    query: query("trip", "(trip_id: $id)"),
    variables: (t) => ({ id: t.trip }),
  },
  {
    field: "myTrips",
    target: people,
    allowed: ["pasajero"],
    roles: SELF("pasajero"),
    query: query("myTrips", "(rol: pasajero, alcance: historial)"),
  },
  {
    field: "driverProfile",
    target: people,
    allowed: ["conductor", "administrador"],
    query: query("driverProfile", "(conductor_id: $id)"),
    variables: (t) => ({ id: t.conductor }),
  },
  {
    field: "verificationStatus",
    target: people,
    allowed: ["conductor"],
    refusedAs: NOT_DRIVERS,
    roles: ["anónimo", "conductor", "pasajero"],
    query: query("verificationStatus"),
  },
  {
    field: "earnings",
    target: people,
    allowed: ["conductor", "administrador"],
    query: query("earnings", "(conductor_id: $id, periodo: mes)"),
    variables: (t) => ({ id: t.conductor }),
  },
  {
    field: "driverBalance",
    target: people,
    allowed: ["conductor", "administrador"],
    query: query("driverBalance", "(conductor_id: $id)"),
    variables: (t) => ({ id: t.conductor }),
  },
  ...(["driverMovements", "payouts", "payoutAccounts"] as const).map((field) => ({
    field,
    target: people,
    allowed: ["conductor", "administrador"] as const,
    query: query(field, "(conductor_id: $id)"),
    variables: (t: Target) => ({ id: t.conductor }),
  })),
  {
    field: "addPayoutAccount",
    target: people,
    allowed: ["conductor"],
    roles: ["anónimo", "pasajero", "conductor", "administrador"],
    query: mutation("addPayoutAccount", "(input: { tipo: efectivo })"),
  },
  {
    field: "removePayoutAccount",
    target: withMoney("account"),
    allowed: ["conductor"],
    refusedAs: { "otro conductor": "NOT_FOUND" },
    query: mutation("removePayoutAccount", "(cuenta_retiro_id: $id)"),
    variables: (t) => ({ id: t.account }),
  },
  {
    field: "verifyPayoutAccount",
    target: withMoney("account"),
    allowed: ["administrador"],
    query: mutation("verifyPayoutAccount", "(cuenta_retiro_id: $id)"),
    variables: (t) => ({ id: t.account }),
  },
  {
    field: "requestPayout",
    target: withMoney("verified account"),
    allowed: ["conductor"],
    refusedAs: { "otro conductor": "NOT_FOUND" },
    query: mutation("requestPayout", "(monto: 20000, cuenta_retiro_id: $id)"),
    variables: (t) => ({ id: t.account }),
  },
  {
    field: "cancelPayout",
    target: withMoney("payout"),
    allowed: ["conductor"],
    refusedAs: { "otro conductor": "NOT_FOUND" },
    query: mutation("cancelPayout", "(retiro_id: $id)"),
    variables: (t) => ({ id: t.payout }),
  },
  {
    field: "reviewPayout",
    target: withMoney("payout"),
    allowed: ["administrador"],
    query: mutation("reviewPayout", "(accion: aprobar, retiro_id: $id)"),
    variables: (t) => ({ id: t.payout }),
  },
  { field: "ledgerEntries", target: people, allowed: ["administrador"], query: query("ledgerEntries") },
  {
    field: "allPayouts",
    target: people,
    allowed: ["administrador"],
    query: query("allPayouts", "(conductor_id: $id)"),
    variables: (t) => ({ id: t.conductor }),
  },
  {
    field: "settlementReport",
    target: people,
    allowed: ["administrador"],
    query: query("settlementReport", `(desde: "2026-01-01", hasta: "2026-12-31")`),
  },
  {
    field: "recordDeposit",
    target: people,
    allowed: ["administrador"],
    query: mutation("recordDeposit", `(conductor_id: $id, monto: 1000, referencia: "CONSIGNACION-1")`),
    variables: (t) => ({ id: t.conductor }),
  },
  {
    field: "adjustBalance",
    target: people,
    allowed: ["administrador"],
    query: mutation("adjustBalance", `(conductor_id: $id, monto: -500, motivo: "Corrección")`),
    variables: (t) => ({ id: t.conductor }),
  },
  {
    field: "driverStatistics",
    target: people,
    allowed: ["conductor", "administrador"],
    query: query("driverStatistics", "(conductor_id: $id)"),
    variables: (t) => ({ id: t.conductor }),
  },
  { field: "pendingDrivers", target: people, allowed: ["administrador"], query: query("pendingDrivers") },
  { field: "users", target: people, allowed: ["administrador"], query: query("users") },
  { field: "auditLog", target: people, allowed: ["administrador"], query: query("auditLog") },
  { field: "drivers", target: people, allowed: ["administrador"], query: query("drivers") },
  { field: "companies", target: people, allowed: ["administrador"], query: query("companies") },
  { field: "platformStats", target: people, allowed: ["administrador"], query: query("platformStats") },
  { field: "trips", target: tripIn("pendiente"), allowed: ["administrador"], query: query("trips") },
  {
    field: "liveDrivers",
    target: people,
    allowed: ["administrador"],
    query: query("liveDrivers", "(norte: 6.3, sur: 6.1, este: -75.5, oeste: -75.7)"),
  },
  { field: "appSettings", target: people, allowed: ["administrador"], query: query("appSettings") },
  { field: "pricingSheets", target: people, allowed: ["administrador"], query: query("pricingSheets") },
  {
    field: "documentHistory",
    target: people,
    allowed: ["conductor", "administrador"],
    query: query("documentHistory", "(conductor_id: $id)"),
    variables: (t) => ({ id: t.conductor }),
  },
  {
    field: "driverDocumentHistory",
    target: people,
    allowed: ["administrador"],
    query: query("driverDocumentHistory", "(conductor_id: $id)"),
    variables: (t) => ({ id: t.conductor }),
  },
  {
    field: "updateAppSetting",
    target: people,
    allowed: ["administrador"],
    query: mutation("updateAppSetting", `(input: { clave: "aviso_app", valor: "Mantenimiento el domingo" })`),
  },
  {
    field: "updatePricingSheet",
    target: people,
    allowed: ["administrador"],
    query: mutation("updatePricingSheet", "(input: { id: 1, tarifa_base: 4100 })"),
  },
  {
    field: "company",
    target: withCompany,
    allowed: ["administrador"],
    query: query("company", "(id: $id)"),
    variables: (t) => ({ id: t.company }),
  },
  { field: "notifications", target: people, allowed: ["pasajero"], roles: SELF("pasajero"), query: query("notifications") },
  { field: "pricingRates", target: people, allowed: ["pasajero"], roles: SELF("pasajero"), query: query("pricingRates") },
  { field: "tripRequests", target: people, allowed: ["conductor"], roles: SELF("conductor"), query: query("tripRequests") },
  {
    field: "driverTrip",
    target: tripIn("aceptado"),
    allowed: ["conductor", "administrador"],
    query: query("driverTrip", "(trip_id: $id)"),
    variables: (t) => ({ id: t.trip }),
  },
  {
    field: "updateProfile",
    target: people,
    allowed: ["pasajero"],
    roles: SELF("pasajero"),
    query: mutation("updateProfile", `(input: { nombre: "Luz" })`),
  },
  {
    field: "createTrip",
    target: people,
    allowed: ["pasajero"],
    roles: SELF("pasajero"),
    query: mutation(
      "createTrip",
      `(input: {
        tipo_servicio: auto,
        origen: { latitud: ${LLERAS.latitud}, longitud: ${LLERAS.longitud} },
        destino: { latitud: ${ESTADIO.latitud}, longitud: ${ESTADIO.longitud} }
      })`,
    ),
  },
  {
    field: "acceptTrip",
    target: tripIn("pendiente"),
    allowed: ["conductor"],
    refusedAs: NOT_DRIVERS,
    roles: ["anónimo", "pasajero", "conductor", "administrador"],
    query: mutation("acceptTrip", "(trip_id: $id)"),
    variables: (t) => ({ id: t.trip }),
  },
  {
    field: "rejectTripRequest",
    target: tripIn("pendiente"),
    allowed: ["conductor"],
    roles: SELF("conductor"),
    query: mutation("rejectTripRequest", "(trip_id: $id)"),
    variables: (t) => ({ id: t.trip }),
  },
  {
    field: "startRoute",
    target: tripIn("aceptado"),
    allowed: ["conductor"],
    query: mutation("startRoute", "(trip_id: $id)"),
    variables: (t) => ({ id: t.trip }),
  },
  {
    field: "arriveAtStop",
    target: withStop(false),
    allowed: ["conductor"],
    query: mutation("arriveAtStop", "(trip_id: $id, orden: 1)"),
    variables: (t) => ({ id: t.trip }),
  },
  {
    field: "leaveStop",
    target: withStop(true),
    allowed: ["conductor"],
    query: mutation("leaveStop", "(trip_id: $id, orden: 1)"),
    variables: (t) => ({ id: t.trip }),
  },
  {
    field: "requestTripChange",
    target: tripIn("en_curso"),
    allowed: ["pasajero"],
    query: mutation("requestTripChange", "(trip_id: $id, destino: { latitud: 6.2518, longitud: -75.5636 })"),
    variables: (t) => ({ id: t.trip }),
  },
  {
    field: "answerTripChange",
    target: withChange,
    allowed: ["conductor"],
    query: mutation("answerTripChange", "(cambio_id: $id, aceptar: true)"),
    variables: (t) => ({ id: t.change }),
  },
  {
    field: "confirmTripStart",
    target: tripIn("aceptado"),
    allowed: ["pasajero"],
    query: mutation("confirmTripStart", "(trip_id: $id)"),
    variables: (t) => ({ id: t.trip }),
  },
  {
    field: "startTrip",
    target: tripIn("aceptado"),
    allowed: ["conductor"],
    query: mutation("startTrip", "(trip_id: $id)"),
    variables: (t) => ({ id: t.trip }),
  },
  {
    field: "completeTrip",
    target: tripIn("en_curso"),
    allowed: ["conductor"],
    query: mutation("completeTrip", "(trip_id: $id, precio_final: 1)"),
    variables: (t) => ({ id: t.trip }),
  },
  {
    field: "cancelTrip",
    target: tripIn("aceptado"),
    allowed: ["pasajero", "conductor", "administrador"],
    query: mutation("cancelTrip", `(trip_id: $id, motivo: "No llegó")`),
    variables: (t) => ({ id: t.trip }),
  },
  {
    field: "rateDriver",
    target: tripIn("completado"),
    allowed: ["pasajero"],
    query: mutation("rateDriver", "(input: { trip_id: $id, calificacion: 1 })"),
    variables: (t) => ({ id: t.trip }),
  },
  {
    field: "ratePassenger",
    target: tripIn("completado"),
    allowed: ["conductor"],
    query: mutation("ratePassenger", "(input: { trip_id: $id, calificacion: 1 })"),
    variables: (t) => ({ id: t.trip }),
  },
  {
    field: "lookForTrips",
    target: people,
    allowed: ["conductor"],
    roles: SELF("conductor"),
    query: mutation("lookForTrips", "(latitud: 6.2, longitud: -75.57)"),
  },
  {
    field: "updateDriverLocation",
    target: people,
    allowed: ["conductor"],
    roles: SELF("conductor"),
    query: mutation("updateDriverLocation", "(latitud: 6.2, longitud: -75.57)"),
  },
  {
    field: "updateDriverProfile",
    target: people,
    allowed: ["conductor"],
    roles: SELF("conductor"),
    query: mutation("updateDriverProfile", `(input: { direccion: "Calle 2" })`),
  },
  {
    field: "updateVehicle",
    target: people,
    allowed: ["conductor"],
    roles: SELF("conductor"),
    query: mutation("updateVehicle", `(input: { color: "Gris" })`),
  },
  {
    field: "updateLicense",
    target: people,
    allowed: ["conductor"],
    roles: SELF("conductor"),
    query: mutation("updateLicense", "(input: { tipo: B2 })"),
  },
  { field: "submitForApproval", target: applicant, allowed: ["conductor"], roles: SELF("conductor"), query: mutation("submitForApproval") },
  {
    field: "approveDriver",
    target: submitted,
    allowed: ["administrador"],
    query: mutation("approveDriver", "(conductor_id: $id)"),
    variables: (t) => ({ id: t.conductor }),
  },
  {
    field: "rejectDriver",
    target: submitted,
    allowed: ["administrador"],
    query: mutation("rejectDriver", `(conductor_id: $id, motivo: "x")`),
    variables: (t) => ({ id: t.conductor }),
  },
  {
    field: "updateUser",
    target: people,
    allowed: ["administrador"],
    query: mutation("updateUser", `(user_id: $id, input: { nombre: "X" })`),
    variables: (t) => ({ id: t.pasajero }),
  },
  {
    field: "deleteUser",
    target: people,
    allowed: ["administrador"],
    query: mutation("deleteUser", "(user_id: $id)"),
    variables: (t) => ({ id: t.pasajero }),
  },
  {
    field: "suspendUser",
    target: people,
    allowed: ["administrador"],
    query: mutation("suspendUser", `(user_id: $id, motivo: "x")`),
    variables: (t) => ({ id: t.pasajero }),
  },
  {
    field: "activateUser",
    target: people,
    allowed: ["administrador"],
    query: mutation("activateUser", "(user_id: $id)"),
    variables: (t) => ({ id: t.pasajero }),
  },
  {
    field: "createCompany",
    target: people,
    allowed: ["administrador"],
    query: `mutation ($nit: String!) { ${result("createCompany", `(input: { nombre: "Flota", nit: $nit })`)} }`,
    variables: () => ({
      nit: String(Number.parseInt(randomUUID().slice(0, 8), 16))
        .padStart(9, "9")
        .slice(0, 10),
    }),
  },
  {
    field: "updateCompany",
    target: withCompany,
    allowed: ["administrador"],
    query: mutation("updateCompany", `(id: $id, input: { telefono: "6041234567" })`),
    variables: (t) => ({ id: t.company }),
  },
  {
    field: "deleteCompany",
    target: withCompany,
    allowed: ["administrador"],
    query: mutation("deleteCompany", "(id: $id)"),
    variables: (t) => ({ id: t.company }),
  },
  {
    field: "updatePricingRate",
    target: people,
    allowed: ["administrador"],
    query: mutation("updatePricingRate", "(input: { tipo_vehiculo: auto, tarifa_base: 6000 })"),
  },
  { field: "emergencyContacts", target: people, allowed: ["pasajero"], roles: SELF("pasajero"), query: query("emergencyContacts") },
  {
    field: "addEmergencyContact",
    target: people,
    allowed: ["pasajero"],
    roles: SELF("pasajero"),
    query: mutation("addEmergencyContact", `(input: { nombre: "Marta", telefono: "3001234567" })`),
  },
  {
    field: "removeEmergencyContact",
    target: withContact,
    allowed: ["pasajero"],
    // Contacts are looked up among the caller's own: someone else's is simply not found.
    refusedAs: { conductor: "NOT_FOUND", "otro pasajero": "NOT_FOUND", "otro conductor": "NOT_FOUND", administrador: "NOT_FOUND" },
    query: mutation("removeEmergencyContact", "(contacto_id: $id)"),
    variables: (t) => ({ id: t.contact }),
  },
  { field: "savedPlaces", target: people, allowed: ["pasajero"], roles: SELF("pasajero"), query: query("savedPlaces") },
  {
    field: "savePlace",
    target: people,
    allowed: ["pasajero"],
    roles: SELF("pasajero"),
    query: mutation("savePlace", `(input: { tipo: casa, direccion: "Calle 10 # 43-12", latitud: 6.2, longitud: -75.56 })`),
  },
  {
    field: "removeSavedPlace",
    target: withPlace,
    allowed: ["pasajero"],
    // Places are looked up among the caller's own: someone else's is simply not found.
    refusedAs: { conductor: "NOT_FOUND", "otro pasajero": "NOT_FOUND", "otro conductor": "NOT_FOUND", administrador: "NOT_FOUND" },
    query: mutation("removeSavedPlace", "(lugar_id: $id)"),
    variables: (t) => ({ id: t.place }),
  },
  ...(["shareTrip", "tripShares"] as const).map((field) => ({
    field,
    target: tripIn("aceptado"),
    allowed: ["pasajero", "conductor"] as const,
    query: (field === "shareTrip" ? mutation : query)(field, "(trip_id: $id)"),
    variables: (t: Target) => ({ id: t.trip }),
  })),
  {
    field: "revokeTripShare",
    target: withLink,
    allowed: ["pasajero"],
    // Links are looked up among the caller's own, the trip's driver included.
    refusedAs: { conductor: "NOT_FOUND", "otro pasajero": "NOT_FOUND", "otro conductor": "NOT_FOUND", administrador: "NOT_FOUND" },
    query: mutation("revokeTripShare", "(enlace_id: $id)"),
    variables: (t) => ({ id: t.link }),
  },
  {
    field: "markNotificationRead",
    target: withNotification,
    allowed: ["pasajero"],
    // Notifications are looked up among the caller's own: someone else's is simply not found.
    refusedAs: { conductor: "NOT_FOUND", "otro pasajero": "NOT_FOUND", "otro conductor": "NOT_FOUND", administrador: "NOT_FOUND" },
    query: mutation("markNotificationRead", "(id: $id)"),
    variables: (t) => ({ id: t.notification }),
  },
];

/** Operations anyone may call; every other root field must be in the table above or named here. */
const PUBLIC = [
  "login",
  "register",
  "userExists",
  "verifyEmail",
  "resendVerificationCode",
  "deviceStatus",
  "sendEmailCode",
  "verifyEmailCode",
  "serviceStatus",
  "route",
  "distance",
  "geocode",
  "reverseGeocode",
  "fareEstimate",
  "nearbyDrivers",
  "searchPlaces",
  "choosePassword",
  "requestPasswordReset",
];
const COMPANY_MATRIX = "test/access/company-access.test.ts, which adds the company managers' roles";
const DRIVERS_OWN = "test/companies/affiliations.test.ts: a driver's own requests and invitations";
const SOS_MATRIX = "test/safety/sos.test.ts: who sends an SOS, who acts on it and who reads incidents";
const COVERED_ELSEWHERE: Record<string, string> = {
  myCompany: COMPANY_MATRIX,
  companyManagers: COMPANY_MATRIX,
  companyAffiliations: COMPANY_MATRIX,
  affiliationHistory: COMPANY_MATRIX,
  approveCompany: COMPANY_MATRIX,
  setCompanyShare: COMPANY_MATRIX,
  companyBalance: COMPANY_MATRIX,
  companyMovements: COMPANY_MATRIX,
  refuseCompany: "test/companies/joining.test.ts, as approveCompany's row in test/access/company-access.test.ts",
  inviteCompanyManager: COMPANY_MATRIX,
  removeCompanyManager: COMPANY_MATRIX,
  requestCompanyAffiliation: COMPANY_MATRIX,
  acceptCompanyAffiliation: COMPANY_MATRIX,
  refuseCompanyAffiliation: COMPANY_MATRIX,
  inviteDriver: COMPANY_MATRIX,
  endCompanyAffiliation: COMPANY_MATRIX,
  companyDrivers: COMPANY_MATRIX,
  companyDriver: COMPANY_MATRIX,
  companyTrips: COMPANY_MATRIX,
  companyFigures: COMPANY_MATRIX,
  companyReservations: COMPANY_MATRIX,
  myAffiliations: DRIVERS_OWN,
  acceptCompanyInvitation: DRIVERS_OWN,
  declineCompanyInvitation: DRIVERS_OWN,
  leaveCompany: DRIVERS_OWN,
  logout: "test/accounts/sessions.test.ts",
  changePassword: "test/accounts/sessions.test.ts",
  uploadDocument: "the legacy /conductor/upload_documents.php row, which runs it",
  sendSos: SOS_MATRIX,
  acknowledgeSos: SOS_MATRIX,
  resolveSos: SOS_MATRIX,
  shareSosTrip: SOS_MATRIX,
  sosIncident: SOS_MATRIX,
  sosIncidents: SOS_MATRIX,
};

describe("GraphQL", () => {
  let app: TestApp;
  let cast: Cast;
  beforeAll(async () => {
    app = await createTestApp();
    cast = await castFor(app);
  });
  afterAll(() => app.close());

  it("has a rule row for every operation that is not public, and marks exactly the public ones", () => {
    const operations = [schema.getQueryType()!, schema.getMutationType()!].flatMap((type) => Object.values(type.getFields()));
    const subscriptions = Object.values(schema.getSubscriptionType()!.getFields());
    const marked = [...operations, ...subscriptions].filter((field) => field.extensions.public === true).map((field) => field.name);
    expect(marked.sort()).toEqual([...PUBLIC].sort());
    const fields = operations.map((field) => field.name);
    const listed = [...GRAPHQL.map((row) => row.field), ...Object.keys(COVERED_ELSEWHERE)];
    expect(fields.filter((field) => !PUBLIC.includes(field)).sort()).toEqual([...listed].sort());
  });

  it.each(GRAPHQL.map((row) => [row.field, row] as const))("%s", async (_name, row) => {
    await runRow(
      app,
      row,
      async (role, target) => gql(app, row.query, row.variables?.(target) ?? {}, idOf(role, target, cast)),
      (role, outcome, allowed) => {
        const where = `${row.field} as ${role}: ${JSON.stringify(outcome)}`;
        if (allowed) expect(outcome.__typename, where).not.toMatch(/Error$/);
        else expect(outcome.code, where).toBe(role === "anónimo" ? "UNAUTHENTICATED" : (row.refusedAs?.[role] ?? "FORBIDDEN"));
      },
    );
  });

  it("leaves the public operations open to anonymous callers", async () => {
    const place = `{ latitud: ${LLERAS.latitud}, longitud: ${LLERAS.longitud} }`;
    const far = `{ latitud: ${ESTADIO.latitud}, longitud: ${ESTADIO.longitud} }`;
    const calls = [
      `query { userExists(email: "nadie@example.com") { __typename } }`,
      `query { route(origin: ${place}, destination: ${far}) { __typename } }`,
      `query { distance(origin: ${place}, destination: ${far}) { __typename } }`,
      `query { geocode(address: "Medellín") { __typename } }`,
      `query { reverseGeocode(lat: 6.25, lng: -75.57) { __typename } }`,
      `query { fareEstimate(input: { tipo_servicio: auto, origen: ${place}, destino: ${far} }) { __typename } }`,
      `query { nearbyDrivers(latitud: ${LLERAS.latitud}, longitud: ${LLERAS.longitud}, tipo_vehiculo: auto) { __typename } }`,
      `query { searchPlaces(query: "Medellín", lat: 6.25, lng: -75.57) { __typename } }`,
      `mutation { login(email: "nadie@example.com", password: "x") { __typename } }`,
      `mutation {
        register(
          input: { email: "nuevo.publico@example.com", password: "Clave#Segura1", nombre: "N", apellido: "P", telefono: "3001234567" }
        ) {
          __typename
        }
      }`,
      `mutation { resendVerificationCode(email: "nuevo.publico@example.com") { __typename } }`,
      `query { deviceStatus(email: "nadie@example.com", device_uuid: "3f0c2a4e-telefono") { __typename } }`,
      `mutation { sendEmailCode(email: "nuevo.publico@example.com", codigo: "1234") { __typename } }`,
      `mutation { verifyEmailCode(email: "nuevo.publico@example.com", codigo: "1234") { __typename } }`,
      `query { serviceStatus { __typename } }`,
      `mutation { verifyEmail(email: "nuevo.publico@example.com", codigo: "000000") { __typename } }`,
      `mutation { choosePassword(email: "nadie@example.com", codigo: "AAAA-BBBB-CCCC-DDDD", password: "Clave#Segura1") { __typename } }`,
      `mutation { requestPasswordReset(email: "nadie@example.com") { __typename } }`,
    ];
    expect(calls).toHaveLength(PUBLIC.length);
    for (const call of calls) {
      const outcome = await gql(app, call, {}, null);
      expect(outcome.code ?? "none", call).not.toMatch(/UNAUTHENTICATED|FORBIDDEN/);
    }
  });
});
