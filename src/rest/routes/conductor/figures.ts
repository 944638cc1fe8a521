import { z } from "zod";
import { PERIODS } from "../../../domain/drivers/earnings.js";
import { optional } from "../../../domain/validation.js";
import { legacyChoice, legacyText } from "../../legacy-fields.js";
import { EARNINGS, STATISTICS, selection } from "../../resources.js";
import type { LegacyRoute } from "../../route.js";
import { driverRead } from "./calls.js";

/** What the driver earned and how they work, as the app's earnings and statistics screens read it. */
export const figureRoutes: LegacyRoute[] = [
  driverRead(
    {
      path: "/conductor/get_earnings.php",
      aliases: ["/conductor/get_ganancias.php"],
      summary: "Ganancias netas del conductor en un periodo (hoy, semana, mes, total) o entre dos fechas",
      extra: { periodo: optional(legacyChoice(PERIODS)), fecha_inicio: optional(legacyText()), fecha_fin: optional(legacyText()) },
      output: z.object({
        earnings: EARNINGS,
        ganancias: z.object({
          total: z.number(),
          total_viajes: z.int(),
          promedio_por_viaje: z.number(),
          desglose_diario: EARNINGS.shape.desglose_diario,
        }),
        periodo: z.string(),
      }),
    },
    `query Earnings($periodo: Periodo, $fecha_inicio: String, $fecha_fin: String) {
      earnings(periodo: $periodo, desde: $fecha_inicio, hasta: $fecha_fin) {
        ...LegacyError ... on Ganancias { ${selection(EARNINGS)} }
      }
    }`,
    (earnings) => ({
      earnings,
      // pingo's EarningsModel.
      ganancias: {
        total: earnings.ganancia_total,
        total_viajes: earnings.total_viajes,
        promedio_por_viaje: earnings.ganancia_promedio,
        desglose_diario: earnings.desglose_diario,
      },
      periodo: earnings.periodo,
    }),
  ),
  driverRead(
    {
      path: "/conductor/get_statistics.php",
      aliases: ["/conductor/get_estadisticas.php"],
      summary: "Estadísticas del conductor",
      output: z.object({ statistics: STATISTICS, estadisticas: STATISTICS }),
    },
    `query Statistics {
      driverStatistics {
        ...LegacyError
        ... on EstadisticasConductor {
          total_viajes viajes_hoy viajes_semana viajes_mes calificacion_promedio total_calificaciones tasa_aceptacion
          tasa_completacion tasa_cancelacion tiempo_promedio_respuesta distancia_total_km horas_activo horas_hoy ganancias_hoy
        }
      }
    }`,
    (statistics) => ({ statistics, estadisticas: statistics }),
  ),
];
