import { expect } from "vitest";
import type { Db } from "../../src/db/client.js";
import type { TestApp } from "./app.js";
import { PASSWORD } from "./fixtures.js";
import { approveInDatabase, postTo, registerOn, type ServiceProcess } from "./process.js";
import { ESTADIO, LLERAS } from "./trips.js";

/** Makes a share link over GraphQL, as the given user; answers the operation's result. */
const SHARE_TRIP = `mutation ($trip: Int!, $send: Boolean) {
  shareTrip(trip_id: $trip, enviar_a_contactos: $send) {
    __typename
    ... on EnlaceSeguimiento { id viaje_id url vigente vence_en avisados revocado_en }
    ... on Error { code message }
    ... on ValidationError { field }
  }
}`;

export const REVOKE_SHARE = `mutation ($id: Int!) {
  revokeTripShare(enlace_id: $id) { __typename ... on EnlaceSeguimiento { id vigente revocado_en vence_en } ... on Error { code message } }
}`;

export async function shareAs(app: TestApp, userId: number, tripId: number, send?: boolean) {
  const { data, errors } = await app.graphql(SHARE_TRIP, { trip: tripId, send }, userId);
  expect(errors, JSON.stringify(errors)).toBeUndefined();
  return data.shareTrip;
}

/** A link made by the user and expected to work: its id, address and token. */
export async function sharedLink(app: TestApp, userId: number, tripId: number) {
  const link = await shareAs(app, userId, tripId);
  expect(link.__typename, JSON.stringify(link)).toBe("EnlaceSeguimiento");
  return { id: link.id as number, url: link.url as string, token: tokenOf(link.url) };
}

export const tokenOf = (url: string) => new URL(url).pathname.split("/")[2]!;

export interface StreamEvent {
  event: string;
  data: any;
}

/**
 * The events of a Server-Sent Events answer, read as they come: `next` resolves with the next one
 * `match` accepts (skipping the others), or fails after `timeoutMs`; `ended` resolves once the
 * server closes the stream.
 */
export function eventStream(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const queue: StreamEvent[] = [];
  let buffer = "";
  let closed = false;
  /** Wakes `next` when something arrives. */
  let wake = (): void => undefined;

  const pump = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) queue.push({ event, data: JSON.parse(data) });
      }
      wake();
    }
  })()
    .catch(() => undefined)
    .finally(() => {
      closed = true;
      wake();
    });

  async function next(match: (event: StreamEvent) => boolean = () => true, timeoutMs = 10_000): Promise<StreamEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = queue.findIndex(match);
      if (index >= 0) return queue.splice(index, 1)[0]!;
      queue.length = 0;
      if (closed) throw new Error("the stream ended before a matching event");
      const left = deadline - Date.now();
      if (left <= 0) throw new Error("no matching event in time");
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  return {
    next,
    /** Resolves once the server has closed the stream. */
    ended: pump,
  };
}

/**
 * On a running service: an approved driver online at Parque Lleras, a passenger whose trip to the
 * stadium the driver accepted, and the passenger's link to it, all through the service's own calls.
 */
export async function sharedTripOn(service: ServiceProcess, db: Db) {
  const driver = await registerOn(service, "conductor");
  await approveInDatabase(db, driver.id);
  expect((await postTo(service, "/conductor/update_location.php", { conductor_id: driver.id, ...LLERAS, disponibilidad: 1 })).status).toBe(
    200,
  );
  const passenger = await registerOn(service, "pasajero");
  const created = await postTo(service, "/viajes/create_trip.php", {
    usuario_id: passenger.id,
    tipo_servicio: "auto",
    origen: LLERAS,
    destino: ESTADIO,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const tripId: number = created.body.trip.id;
  expect((await postTo(service, "/viajes/accept_trip.php", { trip_id: tripId, conductor_id: driver.id })).status).toBe(200);
  const login = await postTo(service, "/auth/login.php", { email: passenger.email, password: PASSWORD });
  const asPassenger = { authorization: `Bearer ${login.body.token}` };
  const shared = await postTo(service, "/graphql", { query: SHARE_TRIP, variables: { trip: tripId } }, asPassenger);
  const link = shared.body.data.shareTrip;
  expect(link.__typename, JSON.stringify(shared.body)).toBe("EnlaceSeguimiento");
  return { driver, tripId, asPassenger, linkId: link.id as number, token: tokenOf(link.url) };
}

/** A link's stream on a running service, as a browser opens it; `leave` drops the connection. */
export async function streamOn(service: ServiceProcess, token: string) {
  const leaving = new AbortController();
  const response = await fetch(`http://127.0.0.1:${service.port}/seguimiento/${token}/eventos`, {
    headers: { accept: "text/event-stream" },
    signal: leaving.signal,
  });
  expect(response.status).toBe(200);
  return { ...eventStream(response), leave: () => leaving.abort() };
}
