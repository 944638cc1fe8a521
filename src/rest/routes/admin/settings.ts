import { z } from "zod";
import { optional } from "../../../domain/validation.js";
import { legacyFlag, legacyId, legacyInt, legacyNumber, legacyText } from "../../legacy-fields.js";
import { defineRoute, operation, type GraphQLData } from "../../route.js";
import { amount, int, maybeAdmin } from "./calls.js";

/** A vehicle type's rates as pingo's PricingManagementScreen reads and sends them back. */
const RATE_SHEET_FIELDS = `
  id tipo_vehiculo tarifa_base tarifa_minima tarifa_maxima costo_por_km costo_por_minuto recargo_hora_pico recargo_nocturno
  recargo_festivo descuento_distancia_larga umbral_km_descuento comision_plataforma comision_metodo_pago distancia_minima
  distancia_maxima tiempo_espera_gratis costo_tiempo_espera hora_pico_inicio_manana hora_pico_fin_manana hora_pico_inicio_tarde
  hora_pico_fin_tarde hora_nocturna_inicio hora_nocturna_fin notas actualizado_en`;

const clockText = z.string();
const PRICING_CONFIG = z.object({
  id: int,
  tipo_vehiculo: z.string(),
  // Every rate is in force: the screen keeps only active ones.
  activo: z.literal(1),
  tarifa_base: amount,
  tarifa_minima: amount,
  tarifa_maxima: z.null(),
  costo_por_km: amount,
  costo_por_minuto: amount,
  recargo_hora_pico: amount,
  recargo_nocturno: amount,
  recargo_festivo: amount,
  descuento_distancia_larga: amount,
  umbral_km_descuento: amount,
  comision_plataforma: amount,
  comision_metodo_pago: amount,
  distancia_minima: amount,
  distancia_maxima: z.null(),
  tiempo_espera_gratis: int,
  costo_tiempo_espera: amount,
  hora_pico_inicio_manana: clockText,
  hora_pico_fin_manana: clockText,
  hora_pico_inicio_tarde: clockText,
  hora_pico_fin_tarde: clockText,
  hora_nocturna_inicio: clockText,
  hora_nocturna_fin: clockText,
  notas: z.string(),
  fecha_actualizacion: z.iso.datetime(),
});

/** What the screen sends back on save: every field it was shown, as numbers, whole minutes or text. */
const SHEET_INPUT = Object.fromEntries(
  Object.entries(PRICING_CONFIG.omit({ id: true, tipo_vehiculo: true, activo: true, fecha_actualizacion: true }).shape).map(
    ([name, schema]) => [
      name,
      optional(name === "tiempo_espera_gratis" ? legacyInt() : schema instanceof z.ZodString ? legacyText() : legacyNumber()),
    ],
  ),
);

const pricingConfig = ({ actualizado_en, ...sheet }: GraphQLData): z.output<typeof PRICING_CONFIG> => ({
  ...sheet,
  activo: 1,
  fecha_actualizacion: actualizado_en,
});

const APP_SETTING = z.object({
  clave: z.string(),
  valor: z.string().nullable(),
  tipo: z.string(),
  categoria: z.string(),
  descripcion: z.string(),
  es_publica: z.union([z.literal(0), z.literal(1)]),
  por_defecto: z.string().nullable(),
  fecha_actualizacion: z.iso.datetime().nullable(),
});

/** The rates screen and the app's settings. */
export const settingsRoutes = [
  defineRoute({
    method: "GET",
    path: "/admin/get_pricing_configs.php",
    summary: "Las tarifas de cada tipo de vehículo como las ve la pantalla de precios, recargos y comisión en porcentaje",
    input: z.object(maybeAdmin),
    caller: "admin_id",
    document: operation(`query PricingSheets {
      pricingSheets { ...LegacyError ... on QueryPricingSheetsSuccess { data { ${RATE_SHEET_FIELDS} } } }
    }`),
    variables: () => ({}),
    output: z.object({ data: z.array(PRICING_CONFIG) }),
    respond: (result) => ({ message: "Tarifas obtenidas", data: result.data.map(pricingConfig) }),
  }),
  defineRoute({
    method: "POST",
    path: "/admin/update_pricing_config.php",
    summary: "Guarda las tarifas de un tipo de vehículo; un campo que la plataforma fija solo se admite con el valor mostrado",
    input: z.object({
      ...maybeAdmin,
      id: legacyId(),
      ...SHEET_INPUT,
    }),
    caller: "admin_id",
    document: operation(`mutation UpdatePricingSheet($input: HojaTarifasInput!) {
      updatePricingSheet(input: $input) { ...LegacyError ... on HojaTarifas { ${RATE_SHEET_FIELDS} } }
    }`),
    variables: ({ admin_id: _caller, ...input }) => ({ input }),
    output: z.object({ data: PRICING_CONFIG }),
    respond: (sheet) => ({ message: "Tarifas guardadas", data: pricingConfig(sheet) }),
  }),
  defineRoute({
    method: "GET",
    path: "/admin/app_config.php",
    summary: "Los ajustes de la app: con public=1 los públicos, para cualquiera; sin él, todos, solo para administradores",
    input: z.object({ ...maybeAdmin, public: optional(legacyFlag()) }),
    caller: "admin_id",
    document: operation(`query AppSettings($publicas: Boolean) {
      appSettings(publicas: $publicas) {
        ...LegacyError
        ... on QueryAppSettingsSuccess { data { clave valor tipo categoria descripcion es_publica por_defecto actualizado_en } }
      }
    }`),
    variables: (input) => ({ publicas: input.public === true }),
    legacyNames: { publicas: "public" },
    output: z.object({ data: z.object({ config: z.record(z.string(), z.string().nullable()), config_detallada: z.array(APP_SETTING) }) }),
    respond: (result) => ({
      message: "Configuración obtenida",
      data: {
        config: Object.fromEntries(result.data.map(({ clave, valor }: GraphQLData) => [clave, valor])),
        config_detallada: result.data.map(({ es_publica, actualizado_en, ...setting }: GraphQLData) => ({
          ...setting,
          es_publica: es_publica ? 1 : 0,
          fecha_actualizacion: actualizado_en,
        })),
      },
    }),
  }),
  defineRoute({
    method: "PUT",
    path: "/admin/app_config.php",
    summary: "Cambia el valor de un ajuste de la app; los ajustes que existen y su tipo los fija la plataforma",
    input: z.object({
      ...maybeAdmin,
      clave: legacyText(),
      valor: legacyText(),
      tipo: optional(legacyText()),
      categoria: optional(legacyText()),
      descripcion: optional(legacyText()),
      es_publica: optional(legacyFlag()),
    }),
    caller: "admin_id",
    document: operation(`mutation UpdateAppSetting($input: AppSettingInput!) {
      updateAppSetting(input: $input) { ...LegacyError ... on AjusteApp { clave valor } }
    }`),
    variables: ({ admin_id: _caller, ...input }) => ({ input }),
    output: z.object({ data: z.object({ clave: z.string(), valor: z.string().nullable() }) }),
    respond: (setting) => ({ message: "Configuración guardada", data: setting }),
  }),
];
