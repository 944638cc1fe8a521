import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { GraphQLError, type ExecutionResult } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { Connection, DELEGATED, serveTransportWs, type Operation, type ProtocolServer } from "../../src/graphql/transport-ws.js";
import { createLogger } from "../../src/logger.js";

// The protocol on its own, behind a server whose operations are named by their query text.
const SWEEP_MS = 50;

class Socket extends Connection {
  swept = 0;
}

/** Streams one event each time `push` is called, until the operation stops it. */
function stream() {
  let wake: (() => void) | undefined;
  let pending = 0;
  let stopped = false;
  const iterator: AsyncIterableIterator<ExecutionResult> = {
    async next() {
      while (pending === 0 && !stopped) await new Promise<void>((resolve) => (wake = resolve));
      if (stopped) return { done: true, value: undefined };
      pending--;
      return { done: false, value: { data: { n: pending } } };
    },
    async return() {
      stopped = true;
      wake?.();
      streams.stopped++;
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
  streams.push = () => {
    pending++;
    wake?.();
  };
  return iterator;
}
const streams = { push: () => {}, stopped: 0 };
const ended: string[] = [];
const delegated = new Set<Operation>();

const protocol: ProtocolServer<Socket> = {
  log: createLogger({ LOG_LEVEL: "silent" }),
  connect: async (_socket, params) => params.deny !== true,
  async start(operation, payload) {
    switch (payload.query) {
      case "single":
        return { data: { uno: 1 } };
      case "refused":
        return [new GraphQLError("No puedes")];
      case "stream":
        operation.field = "stream";
        return stream();
      case "failing":
        operation.field = "failing";
        return (async function* () {
          yield { data: { n: 1 } };
          throw new Error("se cayó");
        })();
      case "slow":
        await delay(300);
        operation.field = "slow";
        return stream();
      case "delegated":
        operation.field = "delegated";
        operation.writer = { leave: (left) => delegated.delete(left) };
        delegated.add(operation);
        return DELEGATED;
      default:
        throw new Error(`unknown query ${payload.query}`);
    }
  },
  mask: (error) => new GraphQLError(`masked: ${(error as Error).message}`),
  ended: (operation) => ended.push(operation.field!),
  sweep(sockets) {
    for (const socket of sockets) socket.swept++;
  },
};

let http: Server;
let served: ReturnType<typeof serveTransportWs<typeof Socket>>;
let url: string;
beforeAll(async () => {
  http = createServer();
  served = serveTransportWs(http, "/graphql", Socket, protocol, SWEEP_MS);
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}/graphql`;
});
afterAll(async () => {
  await served.close();
  await new Promise((resolve) => http.close(resolve));
});

interface Peer {
  socket: WebSocket;
  send(message: object | string): void;
  next(timeoutMs?: number): Promise<Record<string, unknown>>;
  closed: Promise<number>;
}

async function peer({ init = true, subprotocol = true, autoPong = true } = {}): Promise<Peer> {
  const socket = new WebSocket(url, subprotocol ? "graphql-transport-ws" : [], { autoPong });
  const inbox: string[] = [];
  let waiting: (() => void) | undefined;
  socket.on("message", (data) => {
    inbox.push(String(data));
    waiting?.();
  });
  const closed = new Promise<number>((resolve) => socket.once("close", resolve));
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  const self: Peer = {
    socket,
    closed,
    send: (message) => socket.send(typeof message === "string" ? message : JSON.stringify(message)),
    async next(timeoutMs = 2000) {
      const deadline = Date.now() + timeoutMs;
      while (inbox.length === 0) {
        if (Date.now() > deadline) throw new Error("no message within the time limit");
        await Promise.race([new Promise<void>((resolve) => (waiting = resolve)), delay(50)]);
      }
      return JSON.parse(inbox.shift()!);
    },
  };
  if (init) {
    self.send({ type: "connection_init", payload: {} });
    expect(await self.next()).toEqual({ type: "connection_ack" });
  }
  return self;
}

const subscribe = (p: Peer, id: string, query: string) => p.send({ id, type: "subscribe", payload: { query } });

describe("graphql-transport-ws, connections", () => {
  it("closes (4406) a socket that does not speak the protocol", async () => {
    const p = await peer({ init: false, subprotocol: false });
    expect(await p.closed).toBe(4406);
  });

  it("closes (4408) a connection not initialised within the wait, and keeps one that was", async () => {
    const late = await peer({ init: false });
    const prompt = await peer();
    expect(await late.closed).toBe(4408);
    expect(prompt.socket.readyState).toBe(WebSocket.OPEN);
    prompt.socket.close();
  });

  it("refuses (4403) a connection its server refuses, and (4429) a second connection_init", async () => {
    const denied = await peer({ init: false });
    denied.send({ type: "connection_init", payload: { deny: true } });
    expect(await denied.closed).toBe(4403);
    const twice = await peer();
    twice.send({ type: "connection_init" });
    expect(await twice.closed).toBe(4429);
  });

  it("closes (4401) on a subscribe before the connection is acknowledged", async () => {
    const p = await peer({ init: false });
    subscribe(p, "1", "single");
    expect(await p.closed).toBe(4401);
  });

  it("closes (4400) on a message that is not the protocol's, or is the server's to send", async () => {
    for (const message of ["{nope", { type: "subscribe", id: "", payload: { query: "single" } }, { type: "next", id: "1", payload: {} }]) {
      const p = await peer();
      p.send(message);
      expect(await p.closed).toBe(4400);
    }
  });

  it("answers a ping with a pong carrying its payload", async () => {
    const p = await peer();
    p.send({ type: "ping", payload: { t: 1 } });
    expect(await p.next()).toEqual({ type: "pong", payload: { t: 1 } });
    p.socket.close();
  });

  it("pings every socket, keeps those that answer and cuts those that do not", async () => {
    const answering = await peer();
    const silent = await peer({ autoPong: false });
    let pinged = 0;
    silent.socket.on("ping", () => pinged++);
    // A ping every 12 sweeps; an unanswered one cuts the socket at the next (1006 at the client).
    expect(await silent.closed).toBe(1006);
    expect(pinged).toBe(1);
    expect(answering.socket.readyState).toBe(WebSocket.OPEN);
    answering.socket.close();
  });

  it("hands its server every open socket at each sweep", async () => {
    const p = await peer();
    const [socket] = [...served.sockets];
    const before = socket!.swept;
    await delay(SWEEP_MS * 4);
    expect(socket!.swept).toBeGreaterThan(before);
    p.socket.close();
  });
});

describe("graphql-transport-ws, operations", () => {
  it("answers a single result with next, then complete", async () => {
    const p = await peer();
    subscribe(p, "a", "single");
    expect(await p.next()).toEqual({ id: "a", type: "next", payload: { data: { uno: 1 } } });
    expect(await p.next()).toEqual({ id: "a", type: "complete" });
    p.socket.close();
  });

  it("answers a refused operation with error and no complete, and the connection goes on", async () => {
    const p = await peer();
    subscribe(p, "a", "refused");
    expect(await p.next()).toEqual({ id: "a", type: "error", payload: [{ message: "No puedes" }] });
    subscribe(p, "b", "single");
    expect(await p.next()).toMatchObject({ id: "b", type: "next" });
    p.socket.close();
  });

  it("closes (4409) on a second subscribe with an id that is running", async () => {
    const p = await peer();
    subscribe(p, "x", "stream");
    subscribe(p, "x", "stream");
    expect(await p.closed).toBe(4409);
  });

  it("streams events, stops the stream on the client's complete without answering it, and counts it ended", async () => {
    const p = await peer();
    const stopped = streams.stopped;
    subscribe(p, "s", "stream");
    await delay(100);
    streams.push();
    expect(await p.next()).toEqual({ id: "s", type: "next", payload: { data: { n: 0 } } });
    const endedBefore = ended.length;
    p.send({ id: "s", type: "complete" });
    await delay(100);
    expect(streams.stopped).toBe(stopped + 1);
    expect(ended.slice(endedBefore)).toEqual(["stream"]);
    // The id is free again.
    subscribe(p, "s", "single");
    expect(await p.next()).toMatchObject({ id: "s", type: "next" });
    p.socket.close();
  });

  it("sends a stream's failure as error, masked by its server", async () => {
    const p = await peer();
    subscribe(p, "f", "failing");
    expect(await p.next()).toMatchObject({ id: "f", type: "next" });
    expect(await p.next()).toEqual({ id: "f", type: "error", payload: [{ message: "masked: se cayó" }] });
    p.socket.close();
  });

  it("lets go of an operation completed while it was being prepared", async () => {
    const p = await peer();
    const stopped = streams.stopped;
    subscribe(p, "w", "slow");
    p.send({ id: "w", type: "complete" });
    await delay(500);
    expect(streams.stopped).toBe(stopped + 1);
    subscribe(p, "z", "single");
    expect(await p.next()).toMatchObject({ id: "z", type: "next" });
    p.socket.close();
  });

  it("leaves the writer of a delegated operation when its socket closes, and stops every stream of that socket", async () => {
    const p = await peer();
    const stopped = streams.stopped;
    subscribe(p, "d", "delegated");
    subscribe(p, "s", "stream");
    await delay(100);
    expect(delegated.size).toBe(1);
    const [operation] = delegated;
    operation!.next('{"data":{"n":7}}');
    expect(await p.next()).toEqual({ id: "d", type: "next", payload: { data: { n: 7 } } });
    p.socket.close();
    await p.closed;
    await delay(100);
    expect(delegated.size).toBe(0);
    expect(streams.stopped).toBe(stopped + 1);
  });

  it("ends a delegated operation when its writer ends it: complete, or error", async () => {
    const p = await peer();
    subscribe(p, "d1", "delegated");
    subscribe(p, "d2", "delegated");
    await delay(100);
    const [first, second] = delegated;
    first!.end();
    second!.end([new GraphQLError("Terminó mal")]);
    expect(await p.next()).toEqual({ id: "d1", type: "complete" });
    expect(await p.next()).toEqual({ id: "d2", type: "error", payload: [{ message: "Terminó mal" }] });
    // Ended from the server's side, neither is stopped again when the socket closes.
    delegated.clear();
    p.socket.close();
  });
});
