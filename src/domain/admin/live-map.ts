import { z } from "zod";
import type { Trip } from "../../db/models.js";
import { authorize, type Actor } from "../actor.js";
import { ADMIN_RULES } from "./access.js";
import { companyInScope } from "../company-scope.js";
import type { Deps } from "../deps.js";
import { ValidationError } from "../errors.js";
import type { VehicleType } from "../service-types.js";
import { latitude, longitude, parseInput, type Raw } from "../validation.js";
import { DriverAccounts } from "./live-map-accounts.js";
import type { Presence } from "../presence/presence.js";

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

const named = (driver: Unnamed, accounts: DriverAccounts): LiveDriver => ({ ...driver, nombre: accounts.name(driver.conductor_id) });

/** The drivers online in a box right now, for administrators. Every process knows every driver online. */
export async function liveDrivers(deps: Deps, actor: Actor, input: Raw<typeof boxSchema>): Promise<LiveDriver[]> {
  authorize(actor, ADMIN_RULES.liveOperations);
  const found = driversIn(deps, parseBox(input));
  const accounts = new DriverAccounts(deps);
  await accounts.read(found.keys());
  return [...found.values()].map((driver) => named(driver, accounts));
}

const optionalBoxSchema = boxSchema.partial();

/** How often a watcher looks: a driver's position reaches the console at most once a second. */
export const LOOK_EVERY_MS = 1000;

/**
 * The company whose operations a watcher follows: none (everything) for an administrator who names
 * none; otherwise the calling manager's own, or the one an administrator names.
 */
async function watchedCompany(deps: Deps, actor: Actor, empresaId: number | null | undefined): Promise<number | null> {
  if ((empresaId === undefined || empresaId === null) && ADMIN_RULES.liveOperations.allows(actor)) return null;
  return (await companyInScope(deps, actor, empresaId)).id;
}

/**
 * The operations map for someone watching it: every driver and trip for administrators, only its
 * own drivers and the trips done for it for a company (without who rode them). `look` says what
 * changed since the last look: the first has every driver in the box, each later one the drivers
 * who moved or changed state (so a driver is sent at most once per look) and those who left the
 * box, went offline or left the company. `trip` is a trip as the watcher may see it, or null.
 * `forget` is to be called whenever an account changes: a driver's company is read again then.
 */
export async function watchOperations(deps: Deps, actor: Actor, input: Raw<typeof optionalBoxSchema> & { empresa_id?: number | null }) {
  const empresaId = await watchedCompany(deps, actor, input.empresa_id);
  const parts = parseInput(optionalBoxSchema, input);
  const given = Object.values(parts).filter((value) => value !== undefined).length;
  if (given !== 0 && given !== 4) throw new ValidationError("Envía norte, sur, este y oeste juntos, o ninguno para toda la ciudad");
  const box = given === 4 ? parseBox(parts) : null;
  const sent = new Map<number, string>();
  // A driver's name and company are read once per watcher, not on every move.
  const accounts = new DriverAccounts(deps);
  const signature = (driver: Unnamed) => `${driver.latitud},${driver.longitud},${driver.estado},${driver.viaje_activo_id}`;
  async function look() {
    const inBox = driversIn(deps, box);
    // Read before anything counts as sent: a look that fails leaves its changes to the next one.
    await accounts.read(inBox.keys());
    const now = empresaId === null ? inBox : new Map([...inBox].filter(([id]) => accounts.company(id) === empresaId));
    const salidas = [...sent.keys()].filter((id) => !now.has(id));
    const changed = [...now.values()].filter((driver) => sent.get(driver.conductor_id) !== signature(driver));
    for (const id of salidas) sent.delete(id);
    for (const driver of changed) sent.set(driver.conductor_id, signature(driver));
    return { conductores: changed.map((driver) => named(driver, accounts)), salidas };
  }
  const trip = (changed: Trip): Trip | null => {
    if (empresaId === null) return changed;
    // A company sees the trips done for it, never whose account rode them.
    return changed.empresa_id === empresaId ? { ...changed, usuario_id: null } : null;
  };
  return { look, trip, forget: (userId: number) => accounts.forget(userId) };
}
