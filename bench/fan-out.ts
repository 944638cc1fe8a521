/**
 * One trip change to many graphql-ws subscribers of that trip, against a raw `ws` broadcast of the
 * same bytes to as many raw sockets. The server runs here; the clients run in a child process, so
 * that their work neither slows the server's event loop nor counts in its heap.
 * Standalone, after `npm run build`: `npx tsx bench/fan-out.ts [subscribers]`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as delay } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { WebSocketServer, WebSocket } from "ws";
import { buildServer, loadConfig, openSession } from "./built.js";
import { printTable, type BenchRow } from "./table.js";

/**
 * The states a round publishes the trip in, one step further each time: a subscription drops a
 * state it has sent already (followTrip in src/graphql/types/trips.ts). The last round cancels it.
 */
const STEPS = ["aceptado", "en_ruta", "en_curso"] as const;
const ROUNDS = STEPS.length + 1;
const TRIP_UPDATED = `subscription ($id: Int!) {
  tripUpdated(trip_id: $id) {
    id estado usuario_id conductor_id tipo_servicio origen { direccion latitud longitud } destino { direccion latitud longitud }
    precio_estimado precio_final distancia_km duracion_estimada_minutos fecha_solicitud fecha_cancelacion motivo_cancelacion cancelado_por
  }
}`;

// The clients: plain `ws` sockets speaking graphql-transport-ws by hand (lighter than graphql-ws
// clients), counting messages without parsing them, as the raw clients do.
const CLIENTS = `
import WebSocket from ${JSON.stringify(pathToFileURL(createRequire(import.meta.url).resolve("ws")).href)};
const sockets = [];
let armed = 0, received = 0, total = 0;
const send = (message) => process.send(message);
function open({ url, n, token, query, variables }) {
  let opened = 0, next = 0;
  return new Promise((resolve, reject) => {
    const one = () => {
      const i = next++;
      const socket = new WebSocket(url, token ? "graphql-transport-ws" : undefined);
      sockets.push(socket);
      socket.on("error", reject);
      socket.on("open", () => {
        if (!token) return done();
        socket.send(JSON.stringify({ type: "connection_init", payload: { authorization: "Bearer " + token } }));
      });
      socket.on("message", (data) => {
        if (token && !socket.acked) {
          socket.acked = true;
          socket.send(JSON.stringify({ id: "s" + i, type: "subscribe", payload: { query, variables } }));
          return done();
        }
        total++;
        socket.gotOne = true;
        if (armed && ++received === n) {
          armed = 0;
          send({ last: String(process.hrtime.bigint()), id: "s" + i, sample: String(data) });
        }
      });
    };
    const done = () => {
      if (++opened === n) resolve();
      else if (next < n) one();
    };
    for (let k = 0; k < Math.min(n, 500); k++) one();
  });
}
process.on("message", async (m) => {
  if (m.open) { await open(m.open).catch((e) => send({ error: String(e) })); send({ opened: true }); }
  if (m.status) send({ total, ready: sockets.filter((s) => s.gotOne).length });
  if (m.arm) { armed = 1; received = 0; send({ armed: true }); }
  if (m.close) { for (const s of sockets) s.terminate(); process.exit(0); }
});
`;

interface Clients {
  child: ChildProcess;
  /** Sends `message` (unless null) and resolves with the first reply `answer` makes something of. */
  // biome-ignore lint/suspicious/noExplicitAny: a reply is whatever its question asked for, and `answer` reads it
  ask<T>(message: object | null, answer: (reply: any) => T | undefined): Promise<T>;
  close(): Promise<void>;
}

function startClients(): Clients {
  const child = spawn(process.execPath, ["--input-type=module", "-e", CLIENTS], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return {
    child,
    ask: (message, answer) =>
      new Promise((resolve, reject) => {
        const onMessage = (reply: Parameters<typeof answer>[0]) => {
          if (reply.error) return reject(new Error(reply.error));
          const value = answer(reply);
          if (value === undefined) return;
          child.off("message", onMessage);
          resolve(value);
        };
        child.on("message", onMessage);
        if (message) child.send(message);
      }),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.send({ close: true });
      await exited;
    },
  };
}

let gc: (() => void) | undefined;
/** The heap in use after collecting, with or without --expose-gc, so that it counts only what is live. */
function heapUsed() {
  if (!gc) {
    setFlagsFromString("--expose-gc");
    gc = runInNewContext("gc") as () => void;
  }
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (ns: bigint | number) => Number(ns) / 1e6;

interface Round {
  /** From the event being published to the last client receiving it. */
  ms: number;
  /** The event loop's longest block meanwhile. */
  blockedMs: number;
  sample: string;
  id: string;
}

/** One event: arms the clients, then `publish` must return (or resolve to) the moment it published. */
async function round(clients: Clients, publish: () => Promise<bigint>): Promise<Round> {
  await clients.ask({ arm: true }, (r) => r.armed);
  const loop = monitorEventLoopDelay({ resolution: 1 });
  const arrived = clients.ask(null, (r) => (r.last ? r : undefined));
  loop.enable();
  // The histogram counts a block from its second tick on.
  await delay(20);
  const start = await publish();
  // A round that never completes (subscriptions ended, say) fails the scenario instead of hanging the bench.
  const timeout = delay(60_000, undefined, { ref: false }).then(() =>
    Promise.reject(new Error("not every subscriber received the event within 60 s")),
  );
  const { last, sample, id } = await Promise.race([arrived, timeout]);
  loop.disable();
  return { ms: ms(BigInt(last) - start), blockedMs: loop.max / 1e6, sample, id };
}

/** Waits until every client has had at least one event and nothing more is arriving. */
async function warmUp(clients: Clients, n: number, publish: () => void) {
  for (let ready = 0, deadline = Date.now() + 120_000; ready < n; ) {
    if (Date.now() > deadline) throw new Error(`only ${ready} of ${n} subscribers were reached`);
    publish();
    await delay(500);
    ({ ready } = await clients.ask({ status: true }, (r) => (r.ready === undefined ? undefined : r)));
  }
  for (let before = -1, total = 0; total !== before; await delay(300)) {
    before = total;
    total = await clients.ask({ status: true }, (r) => r.total as number | undefined);
  }
}

async function graphqlWs(subscribers: number) {
  const dir = mkdtempSync(join(tmpdir(), "rh-bench-fan-out-"));
  const config = loadConfig({
    DATABASE_URL: `file:${join(dir, "app.db")}`,
    UPLOAD_DIR: join(dir, "uploads"),
    NODE_ENV: "production",
    LOG_LEVEL: "silent",
    DEMO_DATA: "false",
    URL_SIGNING_SECRET: "b".repeat(32),
  });
  const server = await buildServer(config);
  const clients = startClients();
  try {
    const { port } = await server.start(0, "127.0.0.1");
    const { db, events } = server.deps;
    const passenger = await db.user.create({
      data: { email: "pasajera@example.com", nombre: "Ana", apellido: "Restrepo", telefono: "3001234567", password_hash: "unused" },
    });
    const trip = await db.trip.create({
      data: {
        usuario_id: passenger.id,
        tipo_servicio: "auto",
        origen_direccion: "Parque Lleras, El Poblado",
        origen_latitud: 6.2086,
        origen_longitud: -75.5659,
        destino_direccion: "Estadio Atanasio Girardot",
        destino_latitud: 6.2568,
        destino_longitud: -75.5904,
        precio_estimado: 14200,
        distancia_km: 6.1,
        duracion_estimada_minutos: 18,
      },
    });
    const { token } = await openSession(server.deps, passenger.id, null);

    const before = heapUsed();
    await clients.ask(
      { open: { url: `ws://127.0.0.1:${port}/graphql`, n: subscribers, token, query: TRIP_UPDATED, variables: { id: trip.id } } },
      (r) => r.opened,
    );
    await warmUp(clients, subscribers, () => events.publish("viaje", trip.id, trip));
    const perConnection = (heapUsed() - before) / subscribers / 1024;

    // Every round but the last publishes the trip as the domain does after a change; the last is a
    // real change, timed from the domain's publish: the passenger cancels, which also ends the
    // subscriptions (a final state), so it comes last.
    const rounds: Round[] = [];
    for (const estado of STEPS) {
      rounds.push(
        await round(clients, async () => {
          const start = process.hrtime.bigint();
          events.publish("viaje", trip.id, { ...trip, estado });
          return start;
        }),
      );
    }
    const publish = events.publish;
    let publishedAt: bigint | undefined;
    events.publish = ((topic, ...args) => {
      if (topic === "viaje") publishedAt ??= process.hrtime.bigint();
      publish(topic, ...args);
    }) as typeof publish;
    rounds.push(
      await round(clients, async () => {
        const response = await server.fetch(
          new Request("http://bench/graphql", {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
            body: JSON.stringify({
              query: `mutation ($id: Int!) { cancelTrip(trip_id: $id, motivo: "Ya no") { __typename } }`,
              variables: { id: trip.id },
            }),
          }),
        );
        const { data } = (await response.json()) as { data?: { cancelTrip?: { __typename: string } } };
        if (data?.cancelTrip?.__typename !== "Viaje" || publishedAt === undefined) throw new Error(`cancelTrip: ${JSON.stringify(data)}`);
        return publishedAt;
      }),
    );
    events.publish = publish;
    return { rounds, perConnection };
  } finally {
    await clients.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The floor: the same bytes written to as many raw sockets, in one loop. */
async function rawWs(subscribers: number, message: string) {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise((resolve) => wss.once("listening", resolve));
  const clients = startClients();
  try {
    const bytes = Buffer.from(message);
    const broadcast = () => {
      const start = process.hrtime.bigint();
      for (const socket of wss.clients) if (socket.readyState === WebSocket.OPEN) socket.send(bytes, { binary: false });
      return start;
    };
    const before = heapUsed();
    await clients.ask({ open: { url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`, n: subscribers } }, (r) => r.opened);
    await warmUp(clients, subscribers, broadcast);
    const perConnection = (heapUsed() - before) / subscribers / 1024;
    const rounds: Round[] = [];
    while (rounds.length < ROUNDS) rounds.push(await round(clients, async () => broadcast()));
    return { rounds, perConnection };
  } finally {
    await clients.close();
    await new Promise((resolve) => wss.close(resolve));
  }
}

export async function fanOutRows(subscribers = 10_000): Promise<BenchRow[]> {
  const ours = await graphqlWs(subscribers);
  const sample = ours.rounds.at(-1)!;
  const expected = `{"id":"${sample.id}","type":"next","payload":{"data":{"tripUpdated":`;
  if (!sample.sample.startsWith(expected)) throw new Error(`unexpected message: ${sample.sample.slice(0, 200)}`);
  const raw = await rawWs(subscribers, sample.sample);
  const time = median(ours.rounds.map((r) => r.ms));
  const rawTime = median(raw.rounds.map((r) => r.ms));
  // The last round's figure would include the cancelTrip mutation itself.
  const blocked = Math.max(...ours.rounds.slice(0, -1).map((r) => r.blockedMs));
  const rawBlocked = Math.max(...raw.rounds.map((r) => r.blockedMs));
  const n = subscribers.toLocaleString("en");
  // A connection with its subscription may hold at most a tenth more than a bare WebSocket.
  const memoryTargetKib = 1.1 * raw.perConnection;
  return [
    {
      path: `graphql-ws tripUpdated, one event to ${n} subscribers of one trip`,
      measured:
        `last client after ${time.toFixed(0)} ms (median of ${ROUNDS}; ` +
        `the last, a real cancelTrip: ${ours.rounds.at(-1)!.ms.toFixed(0)} ms)`,
      baseline: `raw ws broadcast of the same ${sample.sample.length} bytes: ${rawTime.toFixed(0)} ms`,
      ratio: rawTime / time,
      target: 0.5,
      note: `event loop blocked at most ${blocked.toFixed(0)} ms (raw: ${rawBlocked.toFixed(0)} ms)`,
    },
    {
      path: `graphql-ws server heap per connection, ${n} connections with one subscription each`,
      measured: `${ours.perConnection.toFixed(1)} KiB`,
      baseline: `target ${memoryTargetKib.toFixed(1)} KiB: 1.1 × a raw ws socket's ${raw.perConnection.toFixed(1)} KiB`,
      ratio: memoryTargetKib / ours.perConnection,
      target: 1,
      note: "heapUsed after gc, server process only; clients in a child process",
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const loadBefore = loadavg();
  const rows = await fanOutRows(process.argv[2] ? Number(process.argv[2]) : undefined);
  console.log(printTable(rows, loadBefore));
}
