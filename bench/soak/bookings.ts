import type { Api } from "./client.js";
import { newPassenger } from "./accounts.js";
import { ToolError } from "./lifecycle.js";
import { type Line, none } from "./report.js";
import type { Stack } from "./stack.js";

/*
 * Reservations in the city: passengers of their own (not the city's actors, whose requests they
 * would otherwise meet) book a mototaxi for pickup times that fall during the chaos. Nobody in the
 * city drives one, so each is dispatched as a trip when due and ends unclaimed just after. At the
 * end each must have become exactly one trip (its marker in origen.referencia) and have ended,
 * whatever was killed meanwhile.
 */

/** Booked with no minimum ahead, dispatched at the pickup time and ended at once when nobody took it. */
export const bookingSettings: Record<string, string> = {
  BOOKING_MIN_AHEAD_MIN: "0",
  BOOKING_DISPATCH_LEAD_MIN: "0",
  BOOKING_GRACE_MIN: "0",
  BOOKING_POLL_MS: "500",
};

const BOOK = `mutation ($input: ReservaInput!) { bookTrip(input: $input) { __typename ... on Reserva { id } ... on Error { message } } }`;

/**
 * Books `count` reservations whose pickups spread from a tenth to six tenths of the chaos, which
 * starts about now: answers their markers.
 */
export async function bookAhead(api: Api, count: number, durationS: number, runId: string): Promise<string[]> {
  const markers: string[] = [];
  for (let i = 0; i < count; i++) {
    const passenger = await newPassenger(api, 10_000 + i);
    const marker = `reserva-${runId}-${i}`;
    const at = new Date(Date.now() + (0.1 + (0.5 * i) / Math.max(1, count - 1)) * durationS * 1000).toISOString();
    const input = {
      tipo_servicio: "mototaxi",
      fecha_programada: at,
      origen: { latitud: 6.2442, longitud: -75.5812, direccion: "Parque de Bolívar", referencia: marker },
      destino: { latitud: 6.2518, longitud: -75.5636, direccion: "Estación Parque Berrío" },
    };
    const answer = await api.post(
      "/graphql",
      { query: BOOK, variables: { input } },
      { headers: { authorization: `Bearer ${passenger.token}` } },
    );
    const booked = (answer.body as { data?: { bookTrip?: { __typename: string; message?: string } } }).data?.bookTrip;
    if (booked?.__typename !== "Reserva")
      throw new ToolError(`setting the city up, bookTrip answered ${answer.outcome}: ${booked?.message ?? "(no answer)"}`);
    markers.push(marker);
  }
  return markers;
}

/** Each booked reservation's trips and state, read straight from PostgreSQL. */
async function stored(stack: Stack): Promise<Map<string, { trips: number; estado: string }>> {
  const rows = await stack.sql(
    "SELECT r.origen_referencia, r.estado, (SELECT count(*) FROM viajes v WHERE v.origen_referencia = r.origen_referencia) FROM reservas r",
  );
  const found = new Map<string, { trips: number; estado: string }>();
  for (const row of rows === "" ? [] : rows.split("\n")) {
    const [marker, estado, trips] = row.split("|");
    found.set(marker!, { trips: Number(trips), estado: estado! });
  }
  return found;
}

/** The report's lines on the reservations: each dispatched once and ended, none lost. */
export async function bookingLines(stack: Stack, markers: string[]): Promise<Line[]> {
  const byMarker = await stored(stack);
  const lost = markers.filter((marker) => !byMarker.has(marker) || byMarker.get(marker)!.trips === 0);
  const twice = markers.filter((marker) => (byMarker.get(marker)?.trips ?? 0) > 1);
  const open = markers.filter((marker) => byMarker.has(marker) && byMarker.get(marker)!.estado !== "vencida");
  return [
    {
      what: "reservations falling due during the chaos",
      measured: String(markers.length),
      note: "booked before it, mototaxis nobody drives",
    },
    none("reservations lost (never dispatched as a trip)", lost.length, lost.join(", ")),
    none("reservations dispatched more than once", twice.length, twice.join(", ")),
    none(
      "reservations not ended (vencida) after their pickup",
      open.length,
      open.map((m) => `${m} (${byMarker.get(m)!.estado})`).join(", "),
    ),
  ];
}
