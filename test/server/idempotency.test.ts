import { createHash, randomUUID } from "node:crypto";
import { createSchema, createYoga } from "graphql-yoga";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../src/domain/deps.js";
import { announcePresence } from "../../src/domain/matching/online-drivers.js";
import { tooLargeMessage } from "../../src/http/body.js";
import { failure } from "../../src/http/failure.js";
import { MAX_KEY_LENGTH, REPLAYED_HEADER, useIdempotency } from "../../src/http/idempotency.js";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { PASSWORD, uniqueEmail } from "../support/fixtures.js";
import { ESTADIO, LLERAS, createDriver, createPassenger } from "../support/trips.js";

const CREATE_TRIP = "/viajes/create_trip.php";
/** The server's limit for a body that is not multipart. */
const BODY_LIMIT = 1024 * 1024;
const GQL_CREATE_TRIP = `mutation ($input: CreateTripInput!) {
  createTrip(input: $input) { __typename ... on Viaje { id pasajero { id } } ... on Error { code message } }
}`;
const GQL_ACCEPT_TRIP = `mutation ($id: Int!) {
  acceptTrip(trip_id: $id) { __typename ... on Viaje { id estado conductor_id } ... on Error { code message } }
}`;

const tripFor = (passengerId: number, fields: Record<string, unknown> = {}) => ({
  usuario_id: passengerId,
  tipo_servicio: "auto",
  origen: LLERAS,
  destino: ESTADIO,
  ...fields,
});
const keyed = (key: string, headers: Record<string, string> = {}) => ({ "idempotency-key": key, ...headers });
/** What the record keeps of a key: its SHA-256. */
const digest = (key: string) => createHash("sha256").update(key).digest("hex");

/**
 * A POST straight to the server, for answers `app.legacy` would check against the OpenAPI document
 * (which does not list the 422 of a reused key) and for GraphQL with headers of our own.
 */
async function send(app: TestApp, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await app.server.fetch(
    new Request(`http://test${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const gql = (app: TestApp, query: string, variables: Record<string, unknown>, headers: Record<string, string>) =>
  send(app, "/graphql", { query, variables }, headers);

describe("Idempotency-Key", () => {
  let app: TestApp;
  const records = (key: string) => app.db.idempotentRequest.count({ where: { clave: digest(key) } });
  const tripsOf = (passengerId: number) => app.db.trip.count({ where: { usuario_id: passengerId } });

  beforeAll(async () => {
    app = await createTestApp();
    // Somebody to be offered the trips, so that they are created.
    await createDriver(app);
  });
  afterAll(() => app.close());

  it("answers a retried create_trip.php with the first answer, and only one trip exists", async () => {
    const passenger = await createPassenger(app);
    const key = randomUUID();
    const first = await app.legacy("POST", CREATE_TRIP, tripFor(passenger.id), keyed(key));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ success: true, trip: { usuario_id: passenger.id } });
    expect(first.headers.get(REPLAYED_HEADER)).toBeNull();

    const retry = await app.legacy("POST", CREATE_TRIP, tripFor(passenger.id), keyed(key));
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get("content-type")).toBe(first.headers.get("content-type"));
    expect(retry.headers.get(REPLAYED_HEADER)).toBe("true");
    expect(await tripsOf(passenger.id)).toBe(1);

    // What the retry would have heard without the key: the work ran again and was refused.
    const unkeyed = await app.legacy("POST", CREATE_TRIP, tripFor(passenger.id));
    expect(unkeyed).toMatchObject({ status: 409, body: { success: false, message: expect.stringMatching(/^Ya tienes un viaje activo/) } });
    expect(await tripsOf(passenger.id)).toBe(1);
  });

  it("refuses the same key with another body, method or path with 422, and runs nothing", async () => {
    const passenger = await createPassenger(app);
    const key = randomUUID();
    expect((await app.legacy("POST", CREATE_TRIP, tripFor(passenger.id), keyed(key))).status).toBe(200);
    const trip = await app.db.trip.findFirstOrThrow({ where: { usuario_id: passenger.id } });

    const otherBody = await send(app, CREATE_TRIP, tripFor(passenger.id, { tipo_servicio: "moto" }), keyed(key));
    expect(otherBody.status).toBe(422);
    expect(JSON.parse(otherBody.text)).toEqual({
      success: false,
      message: expect.stringContaining("Idempotency-Key ya se usó con otra petición"),
    });

    const otherPath = await send(app, "/viajes/cancel_trip.php", { trip_id: trip.id, motivo: "Cambio de planes" }, keyed(key));
    expect(otherPath.status).toBe(422);
    expect(await app.db.trip.findUniqueOrThrow({ where: { id: trip.id } })).toMatchObject({ estado: "pendiente" });
    expect(await tripsOf(passenger.id)).toBe(1);

    // At /graphql the refusal is a GraphQL error.
    const graphql = await gql(app, GQL_CREATE_TRIP, { input: { tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO } }, keyed(key));
    expect(graphql.status).toBe(422);
    expect(JSON.parse(graphql.text)).toEqual({
      errors: [{ message: expect.stringContaining("Idempotency-Key"), extensions: { code: "IDEMPOTENCY_KEY_REUSED" } }],
    });
  });

  it("runs ten concurrent requests with one key once, and gives all ten the same answer", async () => {
    const passenger = await createPassenger(app);
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 10 }, () => send(app, CREATE_TRIP, tripFor(passenger.id), keyed(key))));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(JSON.parse(answers[0]!.text)).toMatchObject({ success: true, trip: { usuario_id: passenger.id } });
    // One ran; nine heard its answer.
    expect(answers.filter((a) => a.headers.get(REPLAYED_HEADER) === "true")).toHaveLength(9);
    expect(await tripsOf(passenger.id)).toBe(1);
    expect(await records(key)).toBe(1);
  });

  it("keeps each caller's keys apart: the same key and body from another token runs as its own request", async () => {
    const [ana, luis] = [await createPassenger(app), await createPassenger(app)];
    const key = randomUUID();
    const input = { input: { tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO } };
    const asAna = await gql(app, GQL_CREATE_TRIP, input, keyed(key, await app.bearer(ana.id)));
    const asLuis = await gql(app, GQL_CREATE_TRIP, input, keyed(key, await app.bearer(luis.id)));
    expect(JSON.parse(asAna.text).data.createTrip).toMatchObject({ __typename: "Viaje", pasajero: { id: ana.id } });
    expect(JSON.parse(asLuis.text).data.createTrip).toMatchObject({ __typename: "Viaje", pasajero: { id: luis.id } });
    expect(asLuis.headers.get(REPLAYED_HEADER)).toBeNull();
    expect([await tripsOf(ana.id), await tripsOf(luis.id)]).toEqual([1, 1]);
    // Each caller's retry hears its own answer.
    expect((await gql(app, GQL_CREATE_TRIP, input, keyed(key, await app.bearer(ana.id)))).text).toBe(asAna.text);
    expect((await gql(app, GQL_CREATE_TRIP, input, keyed(key, await app.bearer(luis.id)))).text).toBe(asLuis.text);
    expect(await records(key)).toBe(2);
  });

  it("does not run a GraphQL mutation twice over POST /graphql", async () => {
    const passenger = await createPassenger(app);
    const driver = await createDriver(app);
    const input = { input: { tipo_servicio: "auto", origen: LLERAS, destino: ESTADIO } };
    const createKey = randomUUID();
    const created = await gql(app, GQL_CREATE_TRIP, input, keyed(createKey, await app.bearer(passenger.id)));
    const again = await gql(app, GQL_CREATE_TRIP, input, keyed(createKey, await app.bearer(passenger.id)));
    expect(created.status).toBe(200);
    expect(again).toMatchObject({ status: 200, text: created.text });
    expect(again.headers.get("content-type")).toBe(created.headers.get("content-type"));
    expect(await tripsOf(passenger.id)).toBe(1);

    const id = JSON.parse(created.text).data.createTrip.id;
    const acceptKey = randomUUID();
    const accepted = await gql(app, GQL_ACCEPT_TRIP, { id }, keyed(acceptKey, await app.bearer(driver.id)));
    expect(JSON.parse(accepted.text).data.acceptTrip).toEqual({ __typename: "Viaje", id, estado: "aceptado", conductor_id: driver.id });
    const retried = await gql(app, GQL_ACCEPT_TRIP, { id }, keyed(acceptKey, await app.bearer(driver.id)));
    expect(retried).toMatchObject({ status: accepted.status, text: accepted.text });
    // Run a second time, the accept is refused: the retry above did not run.
    const unkeyed = await gql(app, GQL_ACCEPT_TRIP, { id }, await app.bearer(driver.id));
    expect(JSON.parse(unkeyed.text).data.acceptTrip.__typename).not.toBe("Viaje");
    // The first answer went out as it would have without a key.
    expect(accepted.headers.get("content-type")).toBe(unkeyed.headers.get("content-type"));
    expect(retried.headers.get("content-type")).toBe(unkeyed.headers.get("content-type"));
  });

  it("keeps refusals (4xx) and replays them, even once the request would now succeed", async () => {
    const passenger = await createPassenger(app);
    const invalid = tripFor(passenger.id, { origen: { ...LLERAS, latitud: 120 } });
    const key = randomUUID();
    const refused = await app.legacy("POST", CREATE_TRIP, invalid, keyed(key));
    expect(refused.status).toBe(400);
    const replayed = await app.legacy("POST", CREATE_TRIP, invalid, keyed(key));
    expect(replayed).toMatchObject({ status: 400, body: refused.body });
    expect(replayed.headers.get(REPLAYED_HEADER)).toBe("true");

    // A conflict is kept too: once the trip in the way is cancelled, the same key still hears it.
    const inTheWay = await app.legacy("POST", CREATE_TRIP, tripFor(passenger.id));
    expect(inTheWay.status).toBe(200);
    const conflictKey = randomUUID();
    const conflict = await app.legacy("POST", CREATE_TRIP, tripFor(passenger.id), keyed(conflictKey));
    expect(conflict.status).toBe(409);
    expect(
      (await app.legacy("POST", "/viajes/cancel_trip.php", { trip_id: inTheWay.body.trip.id, motivo: "Cambio de planes" })).status,
    ).toBe(200);
    expect(await app.legacy("POST", CREATE_TRIP, tripFor(passenger.id), keyed(conflictKey))).toMatchObject({
      status: 409,
      body: conflict.body,
    });
    expect(await tripsOf(passenger.id)).toBe(1);
    // A new key is a new request.
    expect((await app.legacy("POST", CREATE_TRIP, tripFor(passenger.id), keyed(randomUUID()))).status).toBe(200);
    expect(await tripsOf(passenger.id)).toBe(2);
  });

  it("leaves requests without the header, and methods other than POST, as they were", async () => {
    const before = await app.db.idempotentRequest.count();
    const passenger = await createPassenger(app);
    const first = await app.legacy("POST", CREATE_TRIP, tripFor(passenger.id));
    const second = await app.legacy("POST", CREATE_TRIP, tripFor(passenger.id));
    expect([first.status, second.status]).toEqual([200, 409]);
    expect(first.headers.get(REPLAYED_HEADER)).toBeNull();

    const key = randomUUID();
    const profile = () => app.legacy("GET", "/auth/profile.php", { userId: String(passenger.id) }, keyed(key));
    expect((await profile()).status).toBe(200);
    expect((await profile()).headers.get(REPLAYED_HEADER)).toBeNull();
    expect(await app.db.idempotentRequest.count()).toBe(before);
  });

  it("keeps no secret readable in the database: a login's token is sealed with the key", async () => {
    const passenger = await createPassenger(app);
    const key = randomUUID();
    const login = await app.legacy("POST", "/auth/login.php", { email: passenger.email, password: PASSWORD }, keyed(key));
    expect(login.status).toBe(200);
    const replayed = await app.legacy("POST", "/auth/login.php", { email: passenger.email, password: PASSWORD }, keyed(key));
    expect(replayed.body.token).toBe(login.body.token);
    expect(await app.db.session.count({ where: { usuario_id: passenger.id } })).toBe(1);

    const record = await app.db.idempotentRequest.findUniqueOrThrow({
      where: { clave_huella_credencial: { clave: digest(key), huella_credencial: "" } },
    });
    expect(JSON.stringify(record)).not.toContain(login.body.token);
    expect(JSON.stringify(record)).not.toContain(passenger.email);
    expect(JSON.stringify(record)).not.toContain(key);
  });

  it("refuses an empty key or one over 255 characters with 400", async () => {
    const passenger = await createPassenger(app);
    const empty = await app.legacy("POST", CREATE_TRIP, tripFor(passenger.id), keyed(""));
    expect(empty).toMatchObject({ status: 400, body: { success: false, message: "La cabecera Idempotency-Key no puede estar vacía" } });
    const long = await app.legacy("POST", CREATE_TRIP, tripFor(passenger.id), keyed("k".repeat(MAX_KEY_LENGTH + 1)));
    expect(long).toMatchObject({ status: 400, body: { success: false, message: expect.stringContaining("255 caracteres") } });
    const graphql = await gql(app, GQL_CREATE_TRIP, { input: {} }, keyed("", await app.bearer(passenger.id)));
    expect(graphql.status).toBe(400);
    expect(JSON.parse(graphql.text).errors[0].extensions.code).toBe("VALIDATION");
    expect(await tripsOf(passenger.id)).toBe(0);

    expect((await app.legacy("POST", CREATE_TRIP, tripFor(passenger.id), keyed("k".repeat(MAX_KEY_LENGTH)))).status).toBe(200);
  });

  it("refuses with 413 a keyed body streamed past the limit, and keeps no record of its key", async () => {
    const key = randomUUID();
    const bytes = new TextEncoder().encode(JSON.stringify({ relleno: "x".repeat(BODY_LIMIT) }));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.subarray(at, at + 64 * 1024));
        controller.close();
      },
    });
    const init = { method: "POST", headers: { "content-type": "application/json", ...keyed(key) }, body, duplex: "half" };
    const response = await app.server.fetch(new Request(`http://test${CREATE_TRIP}`, init as RequestInit));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ success: false, message: tooLargeMessage(BODY_LIMIT) });
    expect(await records(key)).toBe(0);
  });
});

describe("Idempotency-Key after 24 hours", () => {
  const clock = new FixedClock("2026-03-10T15:00:00Z");
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ clock });
  });
  afterAll(() => app.close());

  it("forgets a key (and deletes its record) once it is older than 24 h", async () => {
    const signUp = { email: uniqueEmail(), password: PASSWORD, name: "Ana", lastName: "Restrepo", phone: "3001234567" };
    const key = randomUUID();
    const forgotten = randomUUID();
    const first = await app.legacy("POST", "/auth/register.php", signUp, keyed(key));
    expect(first.status).toBe(200);
    expect((await app.legacy("POST", "/auth/register.php", { ...signUp, phone: "3009999999" }, keyed(forgotten))).status).toBe(409);

    clock.advance(24 * 3600 * 1000 - 60_000);
    expect(await app.legacy("POST", "/auth/register.php", signUp, keyed(key))).toMatchObject({ status: 200, body: first.body });

    clock.advance(2 * 60_000);
    // The e-mail is taken by then: run again, the sign-up is refused.
    const later = await app.legacy("POST", "/auth/register.php", signUp, keyed(key));
    expect(later.status).toBe(409);
    expect(later.headers.get(REPLAYED_HEADER)).toBeNull();
    const records = await app.db.idempotentRequest.findMany({ where: { clave: { in: [digest(key), digest(forgotten)] } } });
    expect(records.map((r) => ({ clave: r.clave, creado_en: r.creado_en, codigo_http: r.codigo_http }))).toEqual([
      { clave: digest(key), creado_en: clock.now(), codigo_http: 409 },
    ]);
  });
});

describe("the idempotency plugin around a handler", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  /** A Yoga server whose `/work.php` answers what `handler` says, counting its runs. */
  function serverWith(handler: (run: number) => Promise<Response> | Response, waitMs?: number) {
    let runs = 0;
    const yoga = createYoga({
      schema: createSchema({ typeDefs: "type Query { ok: Boolean }" }),
      logging: false,
      plugins: [
        useIdempotency(app.db, {
          clock: systemClock,
          log: app.server.deps.log,
          provider: app.server.deps.provider,
          database: { report: () => false },
          bodyLimit: 1024,
          multipartLimit: 1024,
          waitMs,
        }),
        {
          async onRequest({ url, endResponse }) {
            if (url.pathname === "/work.php") endResponse(await handler(++runs));
          },
        },
      ],
    });
    const call = async (key: string, body = "{}") => {
      const response = await yoga.fetch("http://test/work.php", { method: "POST", headers: { "idempotency-key": key }, body });
      return { status: response.status, text: await response.text() };
    };
    return { call, runs: () => runs };
  }

  it("does not keep 5xx answers: the key is released and the retry runs", async () => {
    const server = serverWith((run) => (run === 1 ? failure(503, "Fuera de servicio") : Response.json({ success: true, run })));
    const key = randomUUID();
    expect(await server.call(key)).toMatchObject({ status: 503 });
    expect(await app.db.idempotentRequest.count({ where: { clave: digest(key) } })).toBe(0);
    expect(await server.call(key)).toEqual({ status: 200, text: JSON.stringify({ success: true, run: 2 }) });
    expect(await server.call(key)).toEqual({ status: 200, text: JSON.stringify({ success: true, run: 2 }) });
    expect(server.runs()).toBe(2);
  });

  it("runs a keyed request's work in one transaction with its answer: a server failure undoes what it wrote", async () => {
    const nombre = `deshecha-${randomUUID()}`;
    const server = serverWith(async (run) => {
      await app.db.company.create({ data: { nombre, nit: String(900_000_000 + run) } });
      return run === 1 ? failure(500, "Falló a mitad") : Response.json({ success: true, run });
    });
    const key = randomUUID();
    expect((await server.call(key)).status).toBe(500);
    expect(await app.db.company.count({ where: { nombre } })).toBe(0);
    expect(await server.call(key)).toEqual({ status: 200, text: JSON.stringify({ success: true, run: 2 }) });
    expect(await app.db.company.count({ where: { nombre } })).toBe(1);
  });

  it("forgets what a keyed request that failed decided about a driver in memory, and keeps what one that succeeded decided", async () => {
    const { presence } = app.server.deps.matching;
    const driver = await createDriver(app);
    const decided = presence.get(driver.id)!;
    const server = serverWith((run) => {
      announcePresence(app.server.deps, driver.id, { ...decided, disponible: false });
      return run === 1 ? failure(500, "Falló a mitad") : Response.json({ success: true });
    });
    expect((await server.call(randomUUID())).status).toBe(500);
    expect(presence.get(driver.id)).toBeUndefined();
    expect((await server.call(randomUUID())).status).toBe(200);
    expect(presence.get(driver.id)).toMatchObject({ disponible: false });
  });

  it("answers 409 to a retry that waited its time while the first request still runs, then replays the first answer", async () => {
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    // The wait is short, but long enough for the first request's own transaction to begin on a busy machine.
    const server = serverWith(async (run) => {
      started();
      await finished;
      return Response.json({ success: true, run });
    }, 250);
    const key = randomUUID();
    const first = server.call(key);
    await running;
    const early = await server.call(key);
    expect(early.status).toBe(409);
    expect(JSON.parse(early.text)).toEqual({ success: false, message: expect.stringContaining("sigue en curso") });
    finish();
    expect(await first).toEqual({ status: 200, text: JSON.stringify({ success: true, run: 1 }) });
    expect(await server.call(key)).toEqual(await first);
    expect(server.runs()).toBe(1);
  });
});
