import { z } from "zod";
import { authorize, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { ValidationError } from "../errors.js";
import { MATCH_RADIUS_KM } from "../matching/eligibility.js";
import { missingOr, optional, parseInput, text, type Raw } from "../validation.js";
import { APP_SETTINGS, SETTING_TYPES, type SettingDefinition, type SettingKey } from "../settings.js";
import { ADMIN_RULES } from "./access.js";
import { audit } from "../audit/audit.js";

const KEYS = Object.keys(APP_SETTINGS) as SettingKey[];

const RATES = "las tarifas de cada tipo de vehículo se cambian en /admin/update_pricing_config.php o con la mutación updatePricingRate";

/** Keys of the old settings table that the platform decides elsewhere, and where. */
const ELSEWHERE: Record<string, string> = {
  precio_base_km: RATES,
  precio_minimo_viaje: RATES,
  tarifa_base: RATES,
  tarifa_minima: RATES,
  comision_plataforma: RATES,
  radio_busqueda_conductores: `las solicitudes llegan a los conductores a ${MATCH_RADIUS_KM} km o menos del punto de recogida, fijo en el servicio`,
  tiempo_expiracion_solicitud:
    "las solicitudes se ofrecen por oleadas mientras nadie las toma; se configuran con DISPATCH_WAVE_SIZE y DISPATCH_WAVE_S en el servidor",
};

function definitionOf(clave: string) {
  if (clave in APP_SETTINGS) return { clave: clave as SettingKey, ...APP_SETTINGS[clave as SettingKey] };
  const where = ELSEWHERE[clave];
  throw new ValidationError(where ? `no es un ajuste de la app: ${where}` : `no existe; los ajustes son: ${KEYS.join(", ")}`, "clave");
}

const listSchema = z.object({ publicas: optional(z.boolean()) });

/** The settings with their values and what each is, in a fixed order: only the public ones unless an administrator asks for all. */
export async function appSettings(deps: Deps, actor: Actor, input: Raw<typeof listSchema>) {
  const publicas = parseInput(listSchema, input).publicas === true;
  authorize(actor, ADMIN_RULES.readAppSettings, { publicas });
  const shown = KEYS.filter((clave) => !publicas || APP_SETTINGS[clave].es_publica);
  const stored = await deps.db.appSetting.findMany({ where: { clave: { in: shown } } });
  const byKey = new Map(stored.map((row) => [row.clave, row]));
  return shown.map((clave) => {
    const { max: _max, ...definition } = APP_SETTINGS[clave] as SettingDefinition;
    const row = byKey.get(clave);
    return { clave, ...definition, valor: row?.valor ?? definition.por_defecto, actualizado_en: row?.actualizado_en ?? null };
  });
}

const updateSchema = z.object({
  clave: text(60),
  // Empty returns the setting to its default.
  valor: z.string({ error: missingOr("debe ser un texto") }),
  // What a setting is stays as defined: sent, it must say what the setting already is.
  tipo: optional(z.string()),
  categoria: optional(z.string()),
  descripcion: optional(z.string()),
  es_publica: optional(z.boolean()),
});

/** What a setting is, in words, for a refused change of it. */
const AS_DEFINED = {
  tipo: (definition: SettingDefinition) => `es de tipo ${definition.tipo}`,
  categoria: (definition: SettingDefinition) => `es de la categoría ${definition.categoria}`,
  descripcion: () => "tiene su propia descripción",
  es_publica: (definition: SettingDefinition) => (definition.es_publica ? "es público" : "es privado"),
};

/** The value to store, checked by the setting's type; null returns it to its default. */
function parseValue(definition: SettingDefinition, valor: string): string | null {
  if (valor.trim() === "") {
    if (definition.por_defecto === null) return null;
    throw new ValidationError("no puede estar vacío", "valor");
  }
  const schema = definition.tipo === "texto" ? SETTING_TYPES.texto(definition.max ?? 200) : SETTING_TYPES[definition.tipo]();
  return parseInput(z.object({ valor: schema }), { valor }).valor;
}

/**
 * An administrator sets one setting's value, audited in the same transaction. The other fields
 * a legacy client sends (tipo, categoria, descripcion, es_publica) are accepted only as the
 * setting already is: they are fixed by the platform, and a change is never silently dropped.
 */
export async function updateAppSetting(deps: Deps, actor: Actor, input: Raw<typeof updateSchema>) {
  authorize(actor, ADMIN_RULES.updateAppSetting);
  const { clave, valor, ...fixed } = parseInput(updateSchema, input);
  const definition = definitionOf(clave);
  for (const [field, sent] of Object.entries(fixed) as Array<[keyof typeof fixed, unknown]>) {
    if (sent !== undefined && sent !== definition[field]) {
      throw new ValidationError(`no se puede cambiar: '${clave}' ${AS_DEFINED[field](definition)}, y eso lo fija la plataforma`, field);
    }
  }
  const value = parseValue(definition, valor);
  await deps.db.$transaction(async (tx) => {
    const row = await tx.appSetting.findUnique({ where: { clave } });
    // Storing what is already there changes nothing, and nothing is recorded.
    if ((row?.valor ?? null) === value) return;
    const changed =
      value === null
        ? await tx.appSetting.delete({ where: { clave } })
        : await tx.appSetting.upsert({ where: { clave }, create: { clave, valor: value }, update: { valor: value } });
    await audit(tx, deps, actor, {
      accion: "actualizar_configuracion",
      objetivo_tipo: "configuracion",
      objetivo_id: changed.id,
      detalles: { clave, valor: value },
    });
  });
  const settings = await appSettings(deps, actor, {});
  return settings.find((setting) => setting.clave === clave)!;
}
