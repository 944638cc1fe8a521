import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Client } from "graphql-ws";
import { type Account, goOnline, type Vehicle } from "./accounts.js";
import type { Api, LegacyBody } from "./client.js";
import type { CityOptions } from "./options.js";
import type { Random } from "./random.js";
import { untilSettled } from "./retry.js";
import { SosDesk } from "./sos.js";
import { keepSubscribed, liveClient } from "./ws.js";

interface Point {
  latitud: number;
  longitud: number;
}

/** The city: a square of about 5.5 km around central Medellín, so that every request has drivers within 5 km. */
const CENTRE: Point = { latitud: 6.245, longitud: -75.575 };
const SIDE_DEGREES = 0.05;
const KM_PER_DEGREE = 111.2;

export const CREATE_TRIP = "/viajes/create_trip.php";
const PING_EVERY_MS: [number, number] = [2700, 3300];
/** How long a retried request may take to be settled before the passenger gives up on it. */
const SETTLE_WITHIN_MS = 180_000;
/** How often a passenger reads the trip while following it, besides hearing tripUpdated. */
const READ_EVERY_MS = 10_000;

/** How far along a trip is: its state never goes back, so an older read never undoes a newer event. */
const PROGRESS: Record<string, number> = { pendiente: 0, aceptado: 1, en_ruta: 2, en_curso: 3, completado: 4, cancelado: 4 };
const isFinal = (estado: string) => estado === "completado" || estado === "cancelado";

const TRIP_UPDATED = `subscription ($id: Int!) { tripUpdated(trip_id: $id) { id estado } }`;
const TRIP_REQUESTS = `subscription ($id: Int!) { tripRequests(conductorId: $id) { tipo viaje { id } } }`;

/** One trip request as the passenger lived it, found again in the database by its marker (origen.referencia). */
export interface RequestRecord {
  marker: string;
  /** Milliseconds into the run. */
  sentAt: number;
  outcome: "acknowledged" | "no drivers" | "refused" | "unanswered";
  /** Status and message of a 4xx that settled it. */
  refusal?: string;
  tripId?: number;
  /** Calls it took to settle (1 without retries), and the time from the first to the settling answer. */
  calls: number;
  settleMs: number;
  /** From the acknowledgement to the passenger knowing a driver took it, and how they learnt it. */
  acceptedMs?: number;
  /** performance.now() of the acknowledgement: the city's drivers time their part from it. */
  acknowledgedAt?: number;
  acceptedVia?: "tripUpdated" | "reading the trip";
  /** How the passenger saw it end: `abandoned` is cancelled by them after nobody took it. */
  end?: "completado" | "cancelado" | "abandoned" | "not followed to the end";
}

const pointIn = (random: Random): Point => ({
  latitud: CENTRE.latitud + random.between(-0.5, 0.5) * SIDE_DEGREES,
  longitud: CENTRE.longitud + random.between(-0.5, 0.5) * SIDE_DEGREES,
});

/** A destination 1 to 4 km from `from`, in any direction. */
function awayFrom(from: Point, random: Random): Point {
  const km = random.between(1, 4);
  const angle = random.between(0, 2 * Math.PI);
  return {
    latitud: from.latitud + (km * Math.sin(angle)) / KM_PER_DEGREE,
    longitud: from.longitud + (km * Math.cos(angle)) / (KM_PER_DEGREE * Math.cos((from.latitud * Math.PI) / 180)),
  };
}

const keyed = (account: Account) => ({ "idempotency-key": randomUUID(), authorization: `Bearer ${account.token}` });

/** What every actor shares: the interface, the records, and whether the run still goes on. */
export class City {
  readonly records: RequestRecord[] = [];
  /** Errors of the tool's own code inside an actor: the run is then no measurement. */
  readonly toolErrors: string[] = [];
  /** Passengers start new requests while this holds. */
  requestsOpen = true;
  /** Everything stops. */
  halted = false;
  /** performance.now() when a driver first heard of each trip, and when one was told it took it. */
  readonly offeredAt = new Map<number, number>();
  readonly takenAt = new Map<number, number>();
  /** Trips whose winning accept took more than one call (a process killed, a 503). */
  readonly acceptRetried = new Set<number>();
  readonly startedAt = Date.now();
  /** The SOSs passengers send from their trips, and what the operators' console heard of them. */
  readonly sos: SosDesk;

  constructor(
    readonly api: Api,
    readonly options: CityOptions,
    readonly runId: string,
    private readonly random: Random,
  ) {
    this.sos = new SosDesk(api, random.fork());
  }

  /** Runs an actor's task, keeping any error it throws as a failure of the tool. */
  guard(task: Promise<unknown>): Promise<void> {
    return task.then(
      () => undefined,
      (error: unknown) => {
        this.toolErrors.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
      },
    );
  }

  /** Sleeps until `at` (Date.now() time), or until requests close. */
  async pauseUntil(at: number): Promise<void> {
    while (this.requestsOpen && Date.now() < at) await sleep(Math.min(500, at - Date.now()));
  }

  /** The trip as get_trip.php shows it, read until some process answers (null if none does within 30 s). */
  async readTrip(tripId: number): Promise<NonNullable<LegacyBody["trip"]> | null> {
    const { answer } = await untilSettled((avoid) => this.api.get("/viajes/get_trip.php", { trip_id: tripId }, { avoid }), {
      deadlineMs: 30_000,
      random: this.random,
      halted: () => this.halted,
    });
    return answer?.status === 200 ? (answer.body.trip ?? null) : null;
  }
}

/**
 * A passenger: about every 20 s (once the previous trip is over) asks for a trip through
 * create_trip.php on a random process, retrying the same request with the same Idempotency-Key on
 * another process until an answer settles it; then follows the trip over tripUpdated (and by
 * reading it after reconnecting and every 10 s), and cancels it if nobody takes it in time.
 */
export class Passenger {
  idle = true;
  private readonly client: Client;
  private requests = 0;
  private onReconnect: () => void = () => undefined;
  private readonly service: "auto" | "motocicleta";

  constructor(
    private readonly city: City,
    private readonly account: Account,
    private readonly n: number,
    private readonly random: Random,
  ) {
    this.client = liveClient(city.api, account.token, random, () => this.onReconnect());
    this.service = n % 2 ? "auto" : "motocicleta";
  }

  async run(): Promise<void> {
    try {
      // Passengers start spread over the first 20 s.
      await this.city.pauseUntil(Date.now() + this.random.between(0, 20_000));
      while (this.city.requestsOpen && !this.city.halted) {
        const started = Date.now();
        this.idle = false;
        try {
          await this.request();
        } finally {
          this.idle = true;
        }
        await this.city.pauseUntil(Math.max(started + this.random.between(15_000, 25_000), Date.now() + this.random.between(1000, 3000)));
      }
    } finally {
      await this.client.dispose();
    }
  }

  private async request(): Promise<void> {
    const { city, random, account } = this;
    const marker = `${city.runId}-${this.n}-${++this.requests}`;
    const origen = pointIn(random);
    const body = {
      usuario_id: account.id,
      tipo_servicio: this.service,
      origen: { direccion: `Origen ${marker}`, ...origen, referencia: marker },
      destino: { direccion: "Destino", ...awayFrom(origen, random) },
    };
    const headers = keyed(account);
    const record: RequestRecord = { marker, sentAt: Date.now() - city.startedAt, outcome: "unanswered", calls: 0, settleMs: 0 };
    city.records.push(record);
    const { answer, answers, ms } = await untilSettled((avoid) => city.api.post(CREATE_TRIP, body, { headers, avoid }), {
      deadlineMs: SETTLE_WITHIN_MS,
      random,
      halted: () => city.halted,
    });
    record.calls = answers.length;
    record.settleMs = ms;
    if (!answer) return;
    const trip = answer.body.trip;
    if (answer.status === 200 && answer.body.success === true && trip) {
      record.outcome = "acknowledged";
      record.tripId = trip.id;
      await this.follow(record, trip.id);
    } else if (answer.status === 200) {
      record.outcome = "no drivers";
    } else {
      record.outcome = "refused";
      record.refusal = `${answer.status} ${answer.body.message ?? ""}`.slice(0, 120);
    }
  }

  private async follow(record: RequestRecord, tripId: number): Promise<void> {
    const { city } = this;
    const acknowledged = performance.now();
    record.acknowledgedAt = acknowledged;
    let estado = "pendiente";
    // Some trips bring an SOS, sent once a driver has taken them, while the trip goes on.
    let sendsSos = city.sos.chooses(this.random);
    const learn = (state: string, via: NonNullable<RequestRecord["acceptedVia"]>) => {
      if ((PROGRESS[state] ?? 0) <= (PROGRESS[estado] ?? 0)) return;
      estado = state;
      if (sendsSos && !isFinal(state)) {
        sendsSos = false;
        void city.guard(city.sos.send(this.account, tripId, () => city.halted));
      }
      if (record.acceptedMs === undefined && state !== "cancelado") {
        record.acceptedMs = performance.now() - acknowledged;
        record.acceptedVia = via;
      }
    };
    const read = async () => {
      const trip = await city.readTrip(tripId);
      if (trip) learn(trip.estado, "reading the trip");
    };
    // graphql-ws does not acknowledge a subscription: what happened before it was in place is read.
    const catchUp = () => void city.guard(sleep(300).then(read));
    this.onReconnect = catchUp;
    const close = keepSubscribed<{ tripUpdated: { estado: string } }>(
      this.client,
      city.api.census,
      "tripUpdated",
      { query: TRIP_UPDATED, variables: { id: tripId } },
      { next: (data) => learn(data.tripUpdated.estado, "tripUpdated"), done: () => isFinal(estado), resubscribed: catchUp },
    );
    let abandoned = false;
    let giveUpAt = acknowledged + city.options.patienceS * 1000;
    try {
      await sleep(300);
      await read();
      let nextRead = performance.now() + READ_EVERY_MS;
      while (!isFinal(estado) && !city.halted) {
        await sleep(250);
        if (estado === "pendiente" && !abandoned && performance.now() > giveUpAt) {
          abandoned = await this.cancel(tripId);
          // Refused while still pending: tried again a little later.
          giveUpAt = performance.now() + READ_EVERY_MS;
          await read();
        }
        if (performance.now() >= nextRead) {
          nextRead += READ_EVERY_MS;
          await read();
        }
      }
    } finally {
      close();
      this.onReconnect = () => undefined;
    }
    if (!isFinal(estado)) record.end = "not followed to the end";
    else record.end = estado === "cancelado" && abandoned ? "abandoned" : (estado as "completado" | "cancelado");
  }

  /** Cancels a request nobody took; false when a driver took it meanwhile. */
  private async cancel(tripId: number): Promise<boolean> {
    const headers = keyed(this.account);
    const { answer } = await untilSettled(
      (avoid) =>
        this.city.api.post("/viajes/cancel_trip.php", { trip_id: tripId, motivo: "Ningún conductor tomó el viaje" }, { headers, avoid }),
      { deadlineMs: 60_000, random: this.random, halted: () => this.city.halted },
    );
    return answer?.status === 200;
  }
}

/**
 * A driver: online through update_location.php, pinging every 3 s on a random process; keeps a
 * list of the requests heard over tripRequests and not withdrawn, and whenever free accepts the
 * oldest with accept_trip.php after a moment's thought, then starts and completes it a few
 * seconds apart.
 */
export class Driver {
  busy = false;
  /** The requests heard and not withdrawn, oldest first, as the app's list of requests shows them. */
  private readonly heard = new Set<number>();
  private readonly client: Client;
  private position: Point;

  constructor(
    private readonly city: City,
    private readonly account: Account,
    readonly vehicle: Vehicle,
    private readonly random: Random,
  ) {
    this.client = liveClient(city.api, account.token, random);
    this.position = pointIn(random);
  }

  private ping() {
    return this.city.api.post(
      "/conductor/update_location.php",
      { conductor_id: this.account.id, ...this.position },
      // A phone gives up on a ping after 10 s; the next one follows anyway.
      { timeoutMs: 10_000 },
    );
  }

  goOnline(): Promise<void> {
    return goOnline(this.city.api, this.account, this.position, this.random);
  }

  async run(): Promise<void> {
    const close = keepSubscribed<{ tripRequests: { tipo: string; viaje: { id: number } } }>(
      this.client,
      this.city.api.census,
      "tripRequests",
      { query: TRIP_REQUESTS, variables: { id: this.account.id } },
      { next: ({ tripRequests }) => this.offered(tripRequests.tipo, tripRequests.viaje.id) },
    );
    try {
      while (!this.city.halted) {
        await sleep(this.random.between(...PING_EVERY_MS));
        if (this.city.halted) break;
        // A few tens of metres each time, staying in the city.
        this.position = {
          latitud: clamp(this.position.latitud + this.random.between(-3e-4, 3e-4), CENTRE.latitud),
          longitud: clamp(this.position.longitud + this.random.between(-3e-4, 3e-4), CENTRE.longitud),
        };
        await this.ping();
      }
    } finally {
      close();
      await this.client.dispose();
    }
  }

  private offered(tipo: string, tripId: number): void {
    if (tipo !== "nueva") {
      this.heard.delete(tripId);
      return;
    }
    if (!this.city.offeredAt.has(tripId)) this.city.offeredAt.set(tripId, performance.now());
    this.heard.add(tripId);
    this.takeNext();
  }

  /** When free, takes the request heard longest ago that is still in the list. */
  private takeNext(): void {
    const [tripId] = this.heard;
    if (this.busy || this.city.halted || tripId === undefined) return;
    this.heard.delete(tripId);
    this.busy = true;
    void this.city.guard(
      this.take(tripId).finally(() => {
        this.busy = false;
        this.takeNext();
      }),
    );
  }

  private async take(tripId: number): Promise<void> {
    await sleep(this.random.between(300, 1500));
    if (!(await this.accept(tripId))) return;
    await sleep(this.random.between(2000, 5000));
    if (!(await this.change("/viajes/start_trip.php", tripId, {}, ["en_curso", "completado"]))) return;
    await sleep(this.random.between(4000, 10_000));
    await this.change("/viajes/complete_trip.php", tripId, { precio_final: 12_000 }, ["completado"]);
  }

  /** Whether the trip is this driver's: accepted now, or by an earlier call whose answer was lost. */
  private async accept(tripId: number): Promise<boolean> {
    const { city, account } = this;
    const headers = keyed(account);
    for (let round = 0; round < 3 && !city.halted; round++) {
      const { answer, answers } = await untilSettled(
        (avoid) => city.api.post("/viajes/accept_trip.php", { trip_id: tripId, conductor_id: account.id }, { headers, avoid }),
        // A 409 settles an accept: somebody else took the trip (or the first call still runs: read below).
        {
          deadlineMs: 60_000,
          random: this.random,
          halted: () => city.halted,
          settled: (a) => a.status !== null && a.status < 500 && a.status !== 429,
        },
      );
      if (answer?.status === 200 && answer.body.success === true) {
        city.takenAt.set(tripId, performance.now());
        if (round > 0 || answers.length > 1) city.acceptRetried.add(tripId);
        return true;
      }
      const trip = await city.readTrip(tripId);
      if (!trip || trip.conductor_id === account.id) return trip !== null && !isFinal(trip.estado);
      if (trip.estado !== "pendiente") return false;
      await sleep(500);
    }
    return false;
  }

  /**
   * Starts or completes the trip, until it has reached one of `reached`; false when it ended
   * otherwise (the passenger cancelled it) or the run halted.
   */
  private async change(path: string, tripId: number, fields: Record<string, unknown>, reached: string[]): Promise<boolean> {
    const { city } = this;
    const headers = keyed(this.account);
    while (!city.halted) {
      const { answer } = await untilSettled((avoid) => city.api.post(path, { trip_id: tripId, ...fields }, { headers, avoid }), {
        deadlineMs: 60_000,
        random: this.random,
        halted: () => city.halted,
      });
      if (answer?.status === 200) return true;
      const trip = await city.readTrip(tripId);
      if (trip && reached.includes(trip.estado)) return true;
      if (trip && isFinal(trip.estado)) return false;
      await sleep(1000);
    }
    return false;
  }
}

const clamp = (value: number, centre: number) => Math.min(centre + SIDE_DEGREES / 2, Math.max(centre - SIDE_DEGREES / 2, value));
