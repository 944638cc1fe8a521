import { z } from "zod";
import type { Deps } from "../deps.js";
import { ValidationError } from "../errors.js";
import { parseInstant } from "../time.js";
import { fieldParser, missingOr, optional } from "../validation.js";

// A date alone does not say when to pick somebody up.
const HAS_TIME = /\d[T ]\d{2}:\d{2}/;

const pickupTime = fieldParser(
  "fecha_programada",
  optional(
    z
      .string({ error: missingOr("debe ser una fecha y hora ISO 8601 (AAAA-MM-DDTHH:MM)") })
      .trim()
      .transform((value, ctx) => {
        const instant = HAS_TIME.test(value) ? parseInstant(value) : null;
        if (!instant) {
          ctx.addIssue({
            code: "custom",
            message: "debe ser una fecha y hora ISO 8601 válida (AAAA-MM-DDTHH:MM, hora de Bogotá si no lleva zona)",
          });
          return z.NEVER;
        }
        return instant;
      }),
  ),
);

const minutesOrDays = (ms: number) =>
  ms >= 24 * 3600_000 ? `${Math.round(ms / (24 * 3600_000))} días` : `${Math.round(ms / 60_000)} minutos`;

/**
 * The pickup time of a trip booked ahead (ISO 8601; without a zone it is Bogotá time), between
 * BOOKING_MIN_AHEAD_MIN minutes and BOOKING_MAX_AHEAD_DAYS days from now; undefined when none is sent.
 */
export function parsePickupTime(deps: Deps, value: unknown): Date | undefined {
  const at = pickupTime(value);
  if (!at) return undefined;
  const ahead = at.getTime() - deps.clock.now().getTime();
  const { minAheadMs, maxAheadMs } = deps.booking;
  if (ahead < minAheadMs) throw new ValidationError(`debe ser al menos ${minutesOrDays(minAheadMs)} después de ahora`, "fecha_programada");
  if (ahead > maxAheadMs)
    throw new ValidationError(`no puede ser más de ${minutesOrDays(maxAheadMs)} después de ahora`, "fecha_programada");
  return at;
}
