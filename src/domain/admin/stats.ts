import { member, type Actor } from "../actor.js";
import { USER_TYPES, type UserType } from "../user-types.js";
import { getUser } from "../accounts/users.js";
import type { Deps } from "../deps.js";
import { localDate, nextDay, type Span, within } from "../time.js";
import { total, tripsByState } from "../trips/counts.js";
import { VEHICLE_TYPES } from "../service-types.js";
import { ACTIVE_STATES, type TripState } from "../trip-states.js";
import type { Raw } from "../validation.js";
import { tripIncome } from "../money/settlement.js";
import { ADMIN_RULES } from "./access.js";
import { latestEntries } from "./audit-log.js";
import { type Bucket, figureSpans, lastInstant, type rangeSchema } from "../figure-spans.js";

/** Entries of the audit log shown as recent activity. */
const RECENT_ACTIVITY = 10;

/**
 * The platform's figures for its administrators, counted by the database: accounts by role and
 * sign-ups, drivers online and free (each process knows them all), trips by state, and fares,
 * commissions and drivers' net of completed trips (from the ledger) today, this month (Bogotá
 * calendar) and in total, or in the range asked for. Trips count on the day they were requested;
 * money on the day the trip was completed.
 */
export async function platformStats(deps: Deps, actor: Actor, input: Raw<typeof rangeSchema>) {
  const caller = member(actor, ADMIN_RULES.platformStats);
  const now = deps.clock.now();
  const { today, month, range, days, intervalo, buckets } = figureSpans(now, input);
  const people = { eliminado_en: null };
  const drivers = { conductor: { tipo_usuario: "conductor" } };
  const signUps = (span: Span) => deps.db.user.count({ where: { ...people, creado_en: within(span) } });
  const money = async (span: Span | null) => {
    const { viajes_completados, bruto, comision, neto } = await tripIncome(deps.db, span);
    return { viajes_completados, bruto, comision, neto };
  };

  const [
    administrador,
    roles,
    activos,
    registros_hoy,
    registros_mes,
    registros_por_dia,
    en_revision,
    aprobados,
    por_estado,
    hoy_por_estado,
    ingresos_hoy,
    ingresos_mes,
    ingresos_total,
    periodo,
    actividad_reciente,
    puntos,
  ] = await Promise.all([
    getUser(deps.db, caller.id),
    deps.db.user.groupBy({ by: ["tipo_usuario"], where: people, _count: { _all: true } }),
    deps.db.user.count({ where: { ...people, es_activo: true, fecha_suspension: null } }),
    signUps(today),
    signUps(month),
    Promise.all(days.map(async (start) => ({ fecha: localDate(start), cantidad: await signUps({ start, end: nextDay(start) }) }))),
    deps.db.driverProfile.count({ where: { ...drivers, estado_revision: "en_revision" } }),
    deps.db.driverProfile.count({ where: { ...drivers, aprobado: true } }),
    tripsByState(deps.db, {}),
    tripsByState(deps.db, { fecha_solicitud: within(today) }),
    money(today),
    money(month),
    money(null),
    range &&
      Promise.all([signUps(range), tripsByState(deps.db, { fecha_solicitud: within(range) }), money(range)]).then(
        ([registros, viajes_por_estado, ingresos]) => ({
          desde: range.start ?? null,
          hasta: lastInstant(range),
          registros,
          viajes: total(viajes_por_estado),
          viajes_por_estado,
          ingresos,
        }),
      ),
    latestEntries(deps.db, { take: RECENT_ACTIVITY }),
    Promise.all(buckets.map((span) => pointOf(deps, span))),
  ]);

  const byRole = new Map(roles.map((group) => [group.tipo_usuario as UserType, group._count._all]));
  const role = (type: UserType) => byRole.get(type) ?? 0;
  return {
    generado_en: now,
    administrador,
    usuarios: {
      total: USER_TYPES.reduce((sum, type) => sum + role(type), 0),
      activos,
      pasajeros: role("pasajero"),
      conductores: role("conductor"),
      administradores: role("admin"),
      empresas: role("empresa"),
      registros_hoy,
      registros_mes,
      registros_por_dia,
    },
    conductores: { ...online(deps, now), en_revision, aprobados },
    viajes: {
      total: total(por_estado),
      por_estado,
      activos: total(por_estado.filter(({ estado }) => (ACTIVE_STATES as readonly TripState[]).includes(estado))),
      hoy: total(hoy_por_estado),
      hoy_por_estado,
    },
    ingresos: { hoy: ingresos_hoy, mes: ingresos_mes, total: ingresos_total },
    periodo,
    serie: { intervalo, puntos },
    actividad_reciente,
  };
}

/** One point of the charts: trips requested and cancelled in the span, and completed with their money (from the ledger). */
async function pointOf(deps: Deps, span: Bucket) {
  const [viajes, cancelados, { viajes_completados, bruto, comision, neto }] = await Promise.all([
    deps.db.trip.count({ where: { fecha_solicitud: within(span) } }),
    deps.db.trip.count({ where: { estado: "cancelado", fecha_cancelacion: within(span) } }),
    tripIncome(deps.db, span),
  ]);
  return { inicio: span.start, viajes, cancelados, completados: viajes_completados, bruto, comision, neto };
}

/** Drivers online (free or on a trip) and free for a trip now, by vehicle type, as this process knows them. */
function online(deps: Deps, now: Date) {
  const por_tipo_vehiculo = VEHICLE_TYPES.map((tipo_vehiculo) => ({ tipo_vehiculo, en_linea: 0, disponibles: 0, en_viaje: 0 }));
  for (const driver of deps.matching.presence.all()) {
    const row = por_tipo_vehiculo.find((entry) => entry.tipo_vehiculo === driver.tipo_vehiculo)!;
    row.en_linea += 1;
    if (driver.viaje_activo_id !== null) row.en_viaje += 1;
    // Free, with documents in force: a driver matching could offer a trip to.
    else if (driver.disponible && driver.apto_hasta > now) row.disponibles += 1;
  }
  const total = (key: "en_linea" | "disponibles" | "en_viaje") => por_tipo_vehiculo.reduce((count, row) => count + row[key], 0);
  return { en_linea: total("en_linea"), disponibles: total("disponibles"), en_viaje: total("en_viaje"), por_tipo_vehiculo };
}
