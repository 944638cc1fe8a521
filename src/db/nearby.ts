import type { Db, Tx } from "./client.js";

const KM_PER_DEGREE = (2 * Math.PI * 6371.0088) / 360;

/** The box of coordinates around a circle: half its height and width in degrees, and how much narrower a degree of longitude is there. */
export function boxAround(center: { latitud: number }, radiusKm: number) {
  const dLat = radiusKm / KM_PER_DEGREE;
  const lngScale = Math.max(0.01, Math.cos((center.latitud * Math.PI) / 180));
  return { dLat, dLng: dLat / lngScale, lngScale };
}

/**
 * How many pending trips of a service are picked up within `radiusKm` of a point, up to `limit`,
 * counted by the database, so that no row is read into the process however many there are: the
 * box narrows on the coordinates, then a flat-earth distance decides (within metres of the great
 * circle over a few kilometres). The count stops at `limit`, so that it costs no more however
 * long the queue grows.
 */
export async function countPendingWithin(
  db: Db | Tx,
  center: { latitud: number; longitud: number },
  radiusKm: number,
  serviceType: string,
  limit: number,
): Promise<number> {
  const { dLat, dLng, lngScale } = boxAround(center, radiusKm);
  const [row] = await db.$queryRaw<Array<{ n: bigint | number | string }>>`
    SELECT COUNT(*) AS n FROM (
      SELECT 1 FROM viajes
      WHERE estado = 'pendiente' AND tipo_servicio = ${serviceType}
        AND origen_latitud BETWEEN ${center.latitud - dLat} AND ${center.latitud + dLat}
        AND origen_longitud BETWEEN ${center.longitud - dLng} AND ${center.longitud + dLng}
        AND (origen_latitud - ${center.latitud}) * (origen_latitud - ${center.latitud})
          + (origen_longitud - ${center.longitud}) * (origen_longitud - ${center.longitud}) * ${lngScale * lngScale} <= ${dLat * dLat}
      LIMIT ${limit}
    ) AS cercanos`;
  return Number(row?.n ?? 0);
}
