import type { Db, Tx } from "../db/client.js";
import { email, phone, text } from "./validation.js";

export const SETTING_TYPES = {
  texto: (max: number) => text(max),
  correo: () => email(),
  telefono: () => phone(),
};
type SettingType = keyof typeof SETTING_TYPES;

export interface SettingDefinition {
  tipo: SettingType;
  categoria: string;
  /** Shown to anyone, signed in or not (the apps read them before login). */
  es_publica: boolean;
  descripcion: string;
  /** What readers get while no administrator has set it; null: nothing, and readers do without. */
  por_defecto: string | null;
  /** Longest text accepted. */
  max?: number;
}

/**
 * The app settings administrators edit, and nothing else: each one is read by the service or
 * shown by the apps as it is. Prices, commission and matching are not here; see ELSEWHERE.
 */
export const APP_SETTINGS = {
  app_nombre: {
    tipo: "texto",
    categoria: "general",
    es_publica: true,
    descripcion: "Nombre de la plataforma: lo muestran las apps y firma los correos que envía el servicio",
    por_defecto: "Viax",
    max: 60,
  },
  correo_soporte: {
    tipo: "correo",
    categoria: "soporte",
    es_publica: true,
    descripcion: "Correo de soporte que los correos del servicio y las apps indican a los usuarios; vacío, no se indica ninguno",
    por_defecto: null,
  },
  telefono_soporte: {
    tipo: "telefono",
    categoria: "soporte",
    es_publica: true,
    descripcion: "Teléfono de soporte que las apps indican a los usuarios; vacío, no se indica ninguno",
    por_defecto: null,
  },
  aviso_app: {
    tipo: "texto",
    categoria: "avisos",
    es_publica: true,
    descripcion:
      "Aviso que las apps muestran a todos sus usuarios, como un mantenimiento programado; vacío, ninguno. No detiene el servicio",
    por_defecto: null,
    max: 500,
  },
  notas_internas: {
    tipo: "texto",
    categoria: "administracion",
    es_publica: false,
    descripcion: "Notas de los administradores para los administradores; nunca se muestran a los usuarios",
    por_defecto: null,
    max: 2000,
  },
} as const satisfies Record<string, SettingDefinition>;

export type SettingKey = keyof typeof APP_SETTINGS;
/** A setting's value as the service uses it: what an administrator stored, or its default. */
export async function appSetting<K extends SettingKey>(
  db: Db | Tx,
  clave: K,
): Promise<(typeof APP_SETTINGS)[K]["por_defecto"] extends string ? string : string | null> {
  const stored = await db.appSetting.findUnique({ where: { clave } });
  return (stored?.valor ?? APP_SETTINGS[clave].por_defecto) as never;
}
