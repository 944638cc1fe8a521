import type { Stack } from "./stack.js";

/** A trip as the database holds it at the end, with the marker its request carried in origen.referencia. */
export interface StoredTrip {
  id: number;
  marker: string;
  estado: string;
}

export const ACTIVE_STATES = new Set(["pendiente", "aceptado", "en_ruta", "en_curso"]);

/** Every trip in the run's database, read straight from PostgreSQL. */
export async function storedTrips(stack: Stack): Promise<StoredTrip[]> {
  const rows = await stack.sql("SELECT id, coalesce(origen_referencia, ''), estado FROM viajes ORDER BY id");
  if (rows === "") return [];
  return rows.split("\n").map((row) => {
    const [id, marker, estado] = row.split("|");
    return { id: Number(id), marker: marker!, estado: estado! };
  });
}

/** The trips of each marker: more than one is a request that ran twice. */
export function tripsByMarker(trips: StoredTrip[]): Map<string, StoredTrip[]> {
  const found = new Map<string, StoredTrip[]>();
  for (const trip of trips) found.set(trip.marker, [...(found.get(trip.marker) ?? []), trip]);
  return found;
}
