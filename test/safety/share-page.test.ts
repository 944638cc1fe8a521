import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.js";
import { FixedClock } from "../support/clock.js";
import { post, registerUser } from "../support/fixtures.js";
import { REVOKE_SHARE, eventStream, sharedLink } from "../support/shares.js";
import { createDriver, ESTADIO, LLERAS, northOf, requestTrip } from "../support/trips.js";

let app: TestApp;
const clock = new FixedClock();
beforeAll(async () => {
  // No mail poll: the statements a request makes are counted.
  app = await createTestApp({ clock, env: { MAIL_POLL_MS: "600000" } });
});
afterAll(() => app.close());

const get = (path: string, headers: Record<string, string> = {}, signal?: AbortSignal) =>
  app.server.fetch(new Request(`http://test${path}`, { headers, signal }));
const state = async (token: string) => {
  const response = await get(`/seguimiento/${token}/estado`);
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), text };
};
/** The link's stream, as a page opens it; leaving aborts its request, as a browser does. */
const open = async (token: string) => {
  const leaving = new AbortController();
  const response = await get(`/seguimiento/${token}/eventos`, { accept: "text/event-stream" }, leaving.signal);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
  return { ...eventStream(response), leave: () => leaving.abort() };
};
const revoke = (userId: number, id: number) => app.graphql(REVOKE_SHARE, { id }, userId);
const report = (driverId: number, at: { latitud: number; longitud: number }) =>
  post(app, "/conductor/update_location.php", { conductor_id: driverId, ...at });

/** A passenger and a driver with telltale details, a trip between them accepted, and the passenger's link to it. */
async function sharedTrip() {
  const passenger = await registerUser(app, { name: "Ana María", lastName: "Zuluaga", phone: "3157654321" });
  const driver = await createDriver(app, { at: LLERAS });
  await app.db.user.update({ where: { id: driver.id }, data: { nombre: "Diana Carolina", apellido: "Ospina", telefono: "3169998877" } });
  const trip = await requestTrip(app, passenger.id);
  expect((await post(app, "/viajes/accept_trip.php", { trip_id: trip.id, conductor_id: driver.id })).status).toBe(200);
  const link = await sharedLink(app, passenger.id, trip.id);
  const vehicle = await app.db.vehicle.findUniqueOrThrow({ where: { conductor_id: driver.id } });
  return { passenger, driver, trip, link, placa: vehicle.placa! };
}

/** What the page must never show of the people on the trip. */
const secretsOf = (passenger: { email: string }, driver: { email: string }) => [
  "Zuluaga",
  "Ospina",
  "María",
  "Carolina",
  "3157654321",
  "3169998877",
  passenger.email,
  driver.email,
];

describe("a link's page", () => {
  it("is the same static page for every link, under a Content-Security-Policy that admits nothing from another origin", async () => {
    const { link } = await sharedTrip();
    const response = await get(`/seguimiento/${link.token}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<body data-enlace="activo">');
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    const csp = response.headers.get("content-security-policy")!;
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain("unsafe");
    // No inline script: every script is a file of the page's own.
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    for (const [, asset] of html.matchAll(/(?:src|href)="(\/seguimiento\/recursos\/[^"]+)"/g)) {
      const file = await get(asset!);
      expect(file.status, asset).toBe(200);
      expect(file.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    }
    expect((await get("/seguimiento/recursos/no-existe.js")).status).toBe(404);
  });

  it("answers 404 for a token no link has, and for addresses that are not a link's", async () => {
    const unknown = await get(`/seguimiento/${"A".repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('<body data-enlace="desconocido">');
    for (const path of ["/seguimiento/", "/seguimiento/corto", `/seguimiento/${"B".repeat(43)}/otra-cosa`]) {
      expect((await get(path)).status, path).toBe(404);
    }
    expect(await state("C".repeat(43))).toMatchObject({ status: 404, body: { message: "Este enlace de seguimiento no existe" } });
    const posted = await app.server.fetch(new Request(`http://test/seguimiento/${"A".repeat(43)}`, { method: "POST" }));
    expect(posted.status).toBe(405);
    const peeked = await app.server.fetch(new Request(`http://test/seguimiento/${"A".repeat(43)}/eventos`, { method: "HEAD" }));
    expect(peeked.status).toBe(405);
  });
});

describe("what a link shows", () => {
  it("is the trip's state, the driver's first name, the vehicle, where the driver is, pickup, stops, destination and arrival: nothing else", async () => {
    const { passenger, driver, link, placa } = await sharedTrip();
    const { status, body, text } = await state(link.token);
    expect(status).toBe(200);
    expect(body).toEqual({
      enlace: "activo",
      servidor_en: clock.now().toISOString(),
      viaje: {
        estado: "aceptado",
        pasajero: "Ana",
        conductor: "Diana",
        vehiculo: { tipo: "auto", marca: "Marca", color: "Blanco", placa },
        posicion: { latitud: LLERAS.latitud, longitud: LLERAS.longitud, en: clock.now().toISOString() },
        origen: LLERAS,
        destino: ESTADIO,
        paradas: [],
        llegada_estimada: expect.any(String),
        terminado_en: null,
      },
    });
    // From the pickup, where the driver is, to the stadium: some minutes from now.
    const minutes = (Date.parse(body.viaje.llegada_estimada) - clock.now().getTime()) / 60_000;
    expect(minutes).toBeGreaterThan(5);
    expect(minutes).toBeLessThan(60);
    for (const secret of secretsOf(passenger, driver)) expect(text).not.toContain(secret);
  });

  it("stops showing the driver's position once the trip ends, whatever the driver does next", async () => {
    const { driver, trip, link } = await sharedTrip();
    expect((await post(app, "/viajes/start_trip.php", { trip_id: trip.id })).status).toBe(200);
    expect((await post(app, "/viajes/complete_trip.php", { trip_id: trip.id, precio_final: 15_000 })).status).toBe(200);
    const next = await requestTrip(app, (await registerUser(app)).id, {
      origen: { direccion: "Otro viaje, Envigado", ...northOf(LLERAS, 0.5) },
      destino: { ...ESTADIO, direccion: "Otro destino, Bello" },
    });
    expect((await post(app, "/viajes/accept_trip.php", { trip_id: next.id, conductor_id: driver.id })).status).toBe(200);
    expect((await report(driver.id, northOf(LLERAS, 0.7))).status).toBe(200);
    const { body, text } = await state(link.token);
    expect(body.viaje).toMatchObject({
      estado: "completado",
      posicion: null,
      llegada_estimada: null,
      terminado_en: clock.now().toISOString(),
    });
    expect(text).not.toContain("Otro");
  });
});

describe("a link that shows its trip no more", () => {
  it("shows only that the trip ended, revoked or 30 minutes after the trip ended", async () => {
    const revoked = await sharedTrip();
    expect((await revoke(revoked.passenger.id, revoked.link.id)).data.revokeTripShare.__typename).toBe("EnlaceSeguimiento");
    const expired = await sharedTrip();
    expect((await post(app, "/viajes/cancel_trip.php", { trip_id: expired.trip.id, motivo: "Cambio de planes" })).status).toBe(200);
    clock.advance(30 * 60_000);
    for (const { link } of [revoked, expired]) {
      const page = await get(`/seguimiento/${link.token}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<body data-enlace="terminado">');
      expect(await state(link.token)).toMatchObject({ status: 200, body: { enlace: "terminado", servidor_en: clock.now().toISOString() } });
      const stream = await open(link.token);
      expect((await stream.next()).event).toBe("terminado");
      await stream.ended;
    }
  });

  it("costs the same work as a token no link has: the token's hash looked up in one statement", async () => {
    const revoked = await sharedTrip();
    await revoke(revoked.passenger.id, revoked.link.id);
    const expired = await sharedTrip();
    expect((await post(app, "/viajes/cancel_trip.php", { trip_id: expired.trip.id, motivo: "Cambio de planes" })).status).toBe(200);
    clock.advance(31 * 60_000);
    const statements = async (token: string) => {
      const before = app.queries.length;
      const answer = await get(`/seguimiento/${token}`);
      await answer.text();
      return { status: answer.status, sql: app.queries.slice(before) };
    };
    const unknown = await statements("D".repeat(43));
    expect(unknown.status).toBe(404);
    expect(unknown.sql).toHaveLength(1);
    expect(unknown.sql[0]).toMatch(/FROM viajes_compartidos/);
    for (const ended of [revoked, expired]) expect(await statements(ended.link.token)).toEqual({ status: 200, sql: unknown.sql });

    // And, measured, neither answers sooner: requests taken in turns, their medians compared.
    const times: Record<"unknown" | "revoked", number[]> = { unknown: [], revoked: [] };
    for (let i = 0; i < 40; i++) {
      for (const [kind, token] of [
        ["unknown", `E${String(i).padStart(42, "0")}`],
        ["revoked", revoked.link.token],
      ] as const) {
        const start = performance.now();
        await (await get(`/seguimiento/${token}`)).text();
        times[kind].push(performance.now() - start);
      }
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    expect(Math.abs(median(times.unknown) - median(times.revoked))).toBeLessThan(2);
  });
});

describe("a link's live stream", () => {
  it("sends the trip, each position of its driver and each change, and that it ended once revoked", async () => {
    const { passenger, driver, trip, link } = await sharedTrip();
    const stream = await open(link.token);
    const first = await stream.next();
    expect(first).toMatchObject({ event: "viaje", data: { viaje: { estado: "aceptado", conductor: "Diana" } } });
    expect(Object.keys(first.data).sort()).toEqual(["servidor_en", "viaje"]);

    const moved = northOf(LLERAS, 0.4);
    expect((await report(driver.id, moved)).status).toBe(200);
    const position = await stream.next((event) => event.data.viaje?.posicion?.latitud === moved.latitud);
    expect(position.data.viaje.posicion).toEqual({ ...moved, en: clock.now().toISOString() });

    expect((await post(app, "/viajes/start_trip.php", { trip_id: trip.id })).status).toBe(200);
    expect((await stream.next((event) => event.data.viaje?.estado === "en_curso")).data.viaje.llegada_estimada).toEqual(expect.any(String));

    expect((await revoke(passenger.id, link.id)).data.revokeTripShare.vigente).toBe(false);
    expect((await stream.next((event) => event.event !== "viaje")).event).toBe("terminado");
    await stream.ended;
  });

  it("ends by itself when the link expires, 30 minutes after the trip ended", async () => {
    const { trip, link } = await sharedTrip();
    expect((await post(app, "/viajes/cancel_trip.php", { trip_id: trip.id, motivo: "Cambio de planes" })).status).toBe(200);
    clock.advance(30 * 60_000 - 300);
    const stream = await open(link.token);
    expect((await stream.next()).data.viaje).toMatchObject({ estado: "cancelado", posicion: null });
    expect((await stream.next()).event).toBe("terminado");
    await stream.ended;
  });

  it("stops following the trip when the page leaves", async () => {
    const { driver, link } = await sharedTrip();
    const stream = await open(link.token);
    await stream.next();
    stream.leave();
    await stream.ended;
    // A position after the page left goes nowhere, and breaks nothing.
    expect((await report(driver.id, northOf(LLERAS, 0.2))).status).toBe(200);
    expect((await state(link.token)).body.viaje.posicion.latitud).toBe(northOf(LLERAS, 0.2).latitud);
  });
});

describe("requests about links", () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ env: { SHARE_REQUESTS_PER_ADDRESS: "3", SHARE_REQUEST_WINDOW_S: "60", TRUST_PROXY_HOPS: "1" } });
  });
  afterAll(() => limited.close());

  it("are limited per client address, whatever they ask: the page, its state or its stream", async () => {
    const from = (address: string, path: string) =>
      limited.server.fetch(new Request(`http://test${path}`, { headers: { "x-forwarded-for": address } }));
    const token = "F".repeat(43);
    for (const path of [`/seguimiento/${token}`, `/seguimiento/${token}/estado`, `/seguimiento/${token}/eventos`]) {
      expect((await from("10.0.0.1", path)).status).toBe(404);
    }
    const page = await from("10.0.0.1", `/seguimiento/${token}`);
    expect(page.status).toBe(429);
    expect(Number(page.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await page.text()).toContain('<body data-enlace="limitado">');
    const json = await from("10.0.0.1", `/seguimiento/${token}/estado`);
    expect(json.status).toBe(429);
    expect((await json.json()).message).toMatch(
      /^Demasiadas consultas de enlaces de viaje desde tu conexión; intenta de nuevo en \d+ segundos$/,
    );
    expect((await from("10.0.0.1", `/seguimiento/${token}/eventos`)).status).toBe(429);
    // Another address has its own budget.
    expect((await from("10.0.0.2", `/seguimiento/${token}`)).status).toBe(404);
  });
});
