import type { Prisma } from "../../db/client.js";
import type { Deps } from "../deps.js";
import type { Point } from "../maps/geo.js";
import type { VehicleType } from "../trips/service-types.js";

/** Trip requests reach drivers within this distance of the pickup (spec section 8). */
export const MATCH_RADIUS_KM = 5;

/** Drivers who may be offered a trip of this vehicle type right now, as a database filter. */
export const eligibleDriverWhere = (now: Date, vehicleType: VehicleType, freshSince: Date): Prisma.DriverProfileWhereInput => ({
  aprobado: true,
  conductor: { es_activo: true, fecha_suspension: null, tipo_usuario: "conductor" },
  licencia: { is: { fecha_expiracion: { gt: now } } },
  vehiculo: { is: { tipo: vehicleType, soat_vencimiento: { gt: now }, tecnomecanica_vencimiento: { gt: now } } },
  estado: { is: { disponible: true, posicion_en: { gte: freshSince } } },
});

/**
 * Drivers available for a trip starting at `point`, nearest first: the geo index finds who is
 * online nearby, the database confirms they are approved, in good standing, with documents in
 * force, the right vehicle and no trip on their hands.
 */
export async function availableDriversNear(deps: Deps, point: Point, vehicleType: VehicleType): Promise<number[]> {
  const now = deps.clock.now();
  const freshSince = new Date(now.getTime() - deps.matching.positionMaxAgeMs);
  const nearby = deps.matching.index.nearby(point, MATCH_RADIUS_KM, freshSince);
  if (nearby.length === 0) return [];
  const eligible = await deps.db.driverProfile.findMany({
    where: { conductor_id: { in: nearby.map((d) => d.conductor_id) }, ...eligibleDriverWhere(now, vehicleType, freshSince) },
    select: { conductor_id: true },
  });
  const ids = new Set(eligible.map((d) => d.conductor_id));
  return nearby.filter((d) => ids.has(d.conductor_id)).map((d) => d.conductor_id);
}
