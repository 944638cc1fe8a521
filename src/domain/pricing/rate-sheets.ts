import { z } from "zod";
import type { PricingRate } from "../../db/models.js";
import { authorize, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { NotFoundError, ValidationError } from "../errors.js";
import { NIGHT_HOURS, PEAK_HOURS } from "../maps/speed.js";
import { round } from "../numbers.js";
import { integer, number, optional, parseInput, positiveId, type Raw } from "../validation.js";
import { PRICING_RULES } from "./access.js";
import { updateRate } from "./rates.js";

/*
 * A vehicle type's rates as the administrator's pricing screen shows them (pingo's
 * PricingManagementScreen): surcharges as percentages, and beside the rates an administrator
 * changes, everything else the old screen has a field for, at the value the platform really
 * applies. The screen sends every field back on save; those it cannot change must come back as
 * they were shown.
 */

/** "07:00", and as the old screen's columns hold it, "07:00:00". */
const hhmm = (hour: number) => `${String(hour).padStart(2, "0")}:00`;
const clock = (hour: number) => `${hhmm(hour)}:00`;
const [[morningFrom, morningTo], [eveningFrom, eveningTo]] = PEAK_HOURS;
const [nightFrom, nightTo] = NIGHT_HOURS;
const PEAKS = `entre semana de ${hhmm(morningFrom)} a ${hhmm(morningTo)} y de ${hhmm(eveningFrom)} a ${hhmm(eveningTo)}`;
const NIGHT = `de ${hhmm(nightFrom)} a ${hhmm(nightTo)}`;

const NOTE =
  `Recargo de hora pico ${PEAKS}; nocturno ${NIGHT}. La comisión de la plataforma se cobra sobre cada viaje, y la del método ` +
  "de pago además sobre los pagados con billetera digital o tarjeta. " +
  "Sin tarifa máxima, recargo festivo, descuentos por distancia, límites de distancia ni cobro de espera. " +
  "El multiplicador de demanda puede subir la tarifa cuando hay más solicitudes que conductores cerca.";

/** A field the platform fixes: what the screen is shown, what it may send back for it, and why it cannot change. */
interface Fixed<T = number | string | null> {
  shown: T;
  accepts: (sent: unknown) => boolean;
  why: string;
}

const exactly = <T extends number | string>(shown: T, why: string): Fixed<T> => ({ shown, accepts: (sent) => sent === shown, why });
/** The screen shows a missing limit as 0 and sends that back. */
const noLimit = (why: string): Fixed<null> => ({ shown: null, accepts: (sent) => sent === 0, why });
/** "07:00:00", also as "07:00". */
const hour = (value: number, why: string): Fixed<string> => ({
  shown: clock(value),
  accepts: (sent) => typeof sent === "string" && [clock(value), hhmm(value)].includes(sent.trim()),
  why,
});

const PEAK_FIXED = `las horas pico (${PEAKS}) son fijas en el cálculo de tarifas`;
const NIGHT_FIXED = `el horario nocturno (${NIGHT}) es fijo en el cálculo de tarifas`;
const NO_WAITING = "la espera no se cobra (0)";
const NO_DISCOUNT = "no hay descuento por distancia (0)";

const FIXED = {
  tarifa_maxima: noLimit("la plataforma no pone tope a las tarifas (sin límite, 0)"),
  recargo_festivo: exactly(0, "no se cobra recargo en festivos (0 %)"),
  descuento_distancia_larga: exactly(0, NO_DISCOUNT),
  umbral_km_descuento: exactly(0, NO_DISCOUNT),
  distancia_minima: exactly(0, "no hay distancia mínima por viaje (0)"),
  distancia_maxima: noLimit("no hay distancia máxima por viaje (sin límite, 0)"),
  tiempo_espera_gratis: exactly(0, NO_WAITING),
  costo_tiempo_espera: exactly(0, NO_WAITING),
  hora_pico_inicio_manana: hour(morningFrom, PEAK_FIXED),
  hora_pico_fin_manana: hour(morningTo, PEAK_FIXED),
  hora_pico_inicio_tarde: hour(eveningFrom, PEAK_FIXED),
  hora_pico_fin_tarde: hour(eveningTo, PEAK_FIXED),
  hora_nocturna_inicio: hour(nightFrom, NIGHT_FIXED),
  hora_nocturna_fin: hour(nightTo, NIGHT_FIXED),
  notas: exactly(NOTE, "las notas describen lo que la plataforma aplica y no se editan"),
} satisfies Record<string, Fixed>;

type FixedField = keyof typeof FIXED;

/** The pricing screen's fields the platform fixes: saved only with the value shown. Every other one an administrator changes. */
export const FIXED_ON_SHEET: ReadonlySet<string> = new Set(Object.keys(FIXED));

/** Surcharges are kept as shares of the fare (0.15) and shown as percentages (15); commissions are kept as percentages. */
const toPercent = (share: number) => round(share * 100);
const toShare = (percent: number) => round(percent / 100, 4);

/** The rates an administrator changes: the screen's name, the rate's field, and whether the screen shows it as a percentage. */
const EDITABLE = {
  tarifa_base: { field: "tarifa_base", percent: false },
  tarifa_minima: { field: "tarifa_minima", percent: false },
  costo_por_km: { field: "precio_km", percent: false },
  costo_por_minuto: { field: "precio_minuto", percent: false },
  recargo_hora_pico: { field: "recargo_pico", percent: true },
  recargo_nocturno: { field: "recargo_nocturno", percent: true },
  comision_plataforma: { field: "comision_plataforma", percent: false },
  comision_metodo_pago: { field: "comision_metodo_pago", percent: false },
} as const satisfies Record<string, { field: keyof PricingRate; percent: boolean }>;

type EditableField = keyof typeof EDITABLE;

function sheetOf(rate: PricingRate) {
  const editable = Object.fromEntries(
    Object.entries(EDITABLE).map(([name, { field, percent }]) => [name, percent ? toPercent(rate[field]) : rate[field]]),
  ) as Record<EditableField, number>;
  const fixed = Object.fromEntries(Object.entries(FIXED).map(([name, { shown }]) => [name, shown])) as {
    [F in FixedField]: (typeof FIXED)[F]["shown"];
  };
  return { id: rate.id, tipo_vehiculo: rate.tipo_vehiculo, ...editable, ...fixed, actualizado_en: rate.actualizado_en };
}

export type RateSheet = ReturnType<typeof sheetOf>;

/** Every vehicle type's rates as the administrator's pricing screen shows them. */
export async function rateSheets(deps: Deps, actor: Actor): Promise<RateSheet[]> {
  authorize(actor, PRICING_RULES.sheets);
  const rates = await deps.db.pricingRate.findMany({ orderBy: { tipo_vehiculo: "asc" } });
  return rates.map(sheetOf);
}

const pesos = () => optional(number().min(0, "no puede ser negativo").max(10_000_000, "es demasiado alto"));
const percent = () => optional(number().min(0, "debe estar entre 0 y 100 (%)").max(100, "debe estar entre 0 y 100 (%)"));

const amount = () => optional(number());
const clockText = () => optional(z.string({ error: "debe ser una hora como 07:00:00" }));

const updateSchema = z.object({
  id: positiveId(),
  tarifa_base: pesos(),
  tarifa_minima: pesos(),
  costo_por_km: pesos(),
  costo_por_minuto: pesos(),
  recargo_hora_pico: percent(),
  recargo_nocturno: percent(),
  comision_plataforma: percent(),
  comision_metodo_pago: percent(),
  // The fields the platform fixes, as the screen sends them.
  tarifa_maxima: amount(),
  recargo_festivo: amount(),
  descuento_distancia_larga: amount(),
  umbral_km_descuento: amount(),
  distancia_minima: amount(),
  distancia_maxima: amount(),
  tiempo_espera_gratis: optional(integer()),
  costo_tiempo_espera: amount(),
  hora_pico_inicio_manana: clockText(),
  hora_pico_fin_manana: clockText(),
  hora_pico_inicio_tarde: clockText(),
  hora_pico_fin_tarde: clockText(),
  hora_nocturna_inicio: clockText(),
  hora_nocturna_fin: clockText(),
  notas: optional(z.string()),
} satisfies Record<"id" | EditableField | FixedField, z.ZodType>);

/**
 * Saves what the pricing screen sends for one vehicle type: the rates it changed are applied
 * (audited, see updateRate); a field the platform fixes must come back as it was shown, or the
 * save is refused naming it. Sending everything unchanged changes nothing and records nothing.
 */
export async function updateRateSheet(deps: Deps, actor: Actor, input: Raw<typeof updateSchema>) {
  authorize(actor, PRICING_RULES.update);
  const { id, ...sent }: { id: number } & Record<string, number | string | undefined> = parseInput(updateSchema, input);
  for (const [name, fixed] of Object.entries(FIXED)) {
    const value = sent[name];
    if (value !== undefined && !fixed.accepts(value)) throw new ValidationError(`no se puede cambiar: ${fixed.why}`, name);
  }
  const rate = await deps.db.pricingRate.findUnique({ where: { id } });
  if (!rate) throw new NotFoundError(`No existe una tarifa con id ${id}`);
  const shown = sheetOf(rate);
  const changes = Object.fromEntries(
    Object.entries(EDITABLE).flatMap(([name, { field, percent }]) => {
      const value = sent[name] as number | undefined;
      // Compared as the screen showed it, so that a percentage sent back as shown changes nothing.
      if (value === undefined || value === shown[name as EditableField]) return [];
      return [[field, percent ? toShare(value) : value]];
    }),
  );
  if (Object.keys(changes).length === 0) return shown;
  return sheetOf(await updateRate(deps, actor, { tipo_vehiculo: rate.tipo_vehiculo, ...changes }));
}
