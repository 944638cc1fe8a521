import { z } from "zod";
import { authorize, type Actor } from "../actor.js";
import { ADMIN_RULES } from "../admin/access.js";
import type { Deps } from "../deps.js";
import { ValidationError } from "../errors.js";
import type { VehicleType } from "../trips/service-types.js";
import { latitude, longitude, parseInput, type Raw } from "../validation.js";
import type { Presence } from "./presence.js";

/**
 * The operations console's view of the drivers online: where they are (approximately), whether
 * they are free, on a trip, or kept from trips by a document that expired while they were online.
 */
type LiveState = "libre" | "en_viaje" | "documentos_vencidos";

export interface LiveDriver {
  conductor_id: number;
  nombre: string;
  tipo_vehiculo: VehicleType;
  estado: LiveState;
  latitud: number;
  longitud: number;
  posicion_en: Date;
  viaje_activo_id: number | null;
}

/** Three decimals of a degree, about 110 m: enough to run a city, not enough to follow someone to their door. */
const approximate = (degrees: number) => Math.round(degrees * 1000) / 1000;

const boxSchema = z.object({ norte: latitude(), sur: latitude(), este: longitude(), oeste: longitude() });
type Box = z.output<typeof boxSchema>;

/** The area asked for; a box across the antimeridian is not needed in Colombia and is refused. */
function parseBox(input: Raw<typeof boxSchema>): Box {
  const box = parseInput(boxSchema, input);
  if (box.sur > box.norte) throw new ValidationError("debe ser menor o igual que 'norte'", "sur");
  if (box.oeste > box.este) throw new ValidationError("debe ser menor o igual que 'este'", "oeste");
  return box;
}

const stateOf = (driver: Presence, now: Date): LiveState =>
  driver.viaje_activo_id !== null ? "en_viaje" : driver.apto_hasta > now ? "libre" : "documentos_vencidos";

type Unnamed = Omit<LiveDriver, "nombre">;

/** The drivers online with a position inside the box (anywhere without one), as the map shows them. */
function driversIn(deps: Deps, box: Box | null): Map<number, Unnamed> {
  const now = deps.clock.now();
  const found = new Map<number, Unnamed>();
  for (const driver of deps.matching.presence.all()) {
    const at = driver.posicion;
    if (!at) continue;
    if (box && (at.latitud < box.sur || at.latitud > box.norte || at.longitud < box.oeste || at.longitud > box.este)) continue;
    found.set(driver.conductor_id, {
      conductor_id: driver.conductor_id,
      tipo_vehiculo: driver.tipo_vehiculo,
      estado: stateOf(driver, now),
      latitud: approximate(at.latitud),
      longitud: approximate(at.longitud),
      posicion_en: at.at,
      viaje_activo_id: driver.viaje_activo_id,
    });
  }
  return found;
}

/** Names for drivers: those not in `names` yet are read in one query and kept there. */
async function named(deps: Deps, drivers: Unnamed[], names = new Map<number, string>()): Promise<LiveDriver[]> {
  const unknown = drivers.filter((driver) => !names.has(driver.conductor_id)).map((driver) => driver.conductor_id);
  if (unknown.length > 0) {
    const users = await deps.db.user.findMany({ where: { id: { in: unknown } }, select: { id: true, nombre: true, apellido: true } });
    for (const user of users) names.set(user.id, `${user.nombre} ${user.apellido}`.trim());
  }
  return drivers.map((driver) => ({ ...driver, nombre: names.get(driver.conductor_id) ?? `Conductor ${driver.conductor_id}` }));
}

/** The drivers online in a box right now, for administrators. Every process knows every driver online. */
export async function liveDrivers(deps: Deps, actor: Actor, input: Raw<typeof boxSchema>): Promise<LiveDriver[]> {
  authorize(actor, ADMIN_RULES.liveOperations);
  return named(deps, [...driversIn(deps, parseBox(input)).values()]);
}

const optionalBoxSchema = boxSchema.partial();

/** How often a watcher looks: a driver's position reaches the console at most once a second. */
export const LOOK_EVERY_MS = 1000;

/**
 * What changed on the map since the last look, for an administrator watching: the first look has
 * every driver in the box, each later one the drivers who moved or changed state (so a driver is
 * sent at most once per look) and those who left the box or went offline.
 */
export function watchDrivers(deps: Deps, actor: Actor, input: Raw<typeof optionalBoxSchema>) {
  authorize(actor, ADMIN_RULES.liveOperations);
  const parts = parseInput(optionalBoxSchema, input);
  const given = Object.values(parts).filter((value) => value !== undefined).length;
  if (given !== 0 && given !== 4) throw new ValidationError("Envía norte, sur, este y oeste juntos, o ninguno para toda la ciudad");
  const box = given === 4 ? parseBox(parts) : null;
  const sent = new Map<number, string>();
  // A driver's name is read once per watcher, not on every move.
  const names = new Map<number, string>();
  const signature = (driver: Unnamed) => `${driver.latitud},${driver.longitud},${driver.estado},${driver.viaje_activo_id}`;
  return async function look() {
    const now = driversIn(deps, box);
    const salidas = [...sent.keys()].filter((id) => !now.has(id));
    const changed = [...now.values()].filter((driver) => sent.get(driver.conductor_id) !== signature(driver));
    // Named before anything counts as sent: a look that fails leaves its changes to the next one.
    const conductores = await named(deps, changed, names);
    for (const id of salidas) sent.delete(id);
    for (const driver of changed) sent.set(driver.conductor_id, signature(driver));
    return { conductores, salidas };
  };
}
