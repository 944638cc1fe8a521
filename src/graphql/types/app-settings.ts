import { appSettings, updateAppSetting } from "../../domain/admin/app-settings.js";
import { ValidationError } from "../../domain/errors.js";
import { builder } from "../builder.js";
import { RESTRICTED } from "../errors.js";

type Setting = Awaited<ReturnType<typeof appSettings>>[number];

const AppSetting = builder.objectRef<Setting>("AjusteApp").implement({
  description: "Un ajuste de la app que los administradores cambian; qué ajustes hay lo fija la plataforma",
  fields: (t) => ({
    clave: t.exposeString("clave", { description: "Su nombre" }),
    valor: t.exposeString("valor", { nullable: true, description: "Su valor, o el por defecto si nadie lo cambió; null: sin valor" }),
    tipo: t.exposeString("tipo", { description: "texto, correo o telefono: qué valores admite" }),
    categoria: t.exposeString("categoria", { description: "general, soporte, avisos o administracion" }),
    descripcion: t.exposeString("descripcion", { description: "Para qué sirve y quién lo usa" }),
    es_publica: t.exposeBoolean("es_publica", { description: "true: cualquiera lo lee, también sin sesión (publicas: true)" }),
    por_defecto: t.exposeString("por_defecto", { nullable: true, description: "El valor mientras nadie lo cambie" }),
    actualizado_en: t.expose("actualizado_en", {
      type: "DateTime",
      nullable: true,
      description: "Cuándo lo cambió un administrador; null si tiene el valor por defecto",
    }),
  }),
});

const AppSettingInput = builder.inputType("AppSettingInput", {
  description: "El nuevo valor de un ajuste; los demás campos, si se envían, deben decir lo que el ajuste ya es",
  fields: (t) => ({
    clave: t.string({ required: true, description: "El ajuste" }),
    valor: t.string({ required: true, description: "Su nuevo valor, según su tipo; vacío lo devuelve al valor por defecto" }),
    tipo: t.string({ description: "Su tipo, que no cambia" }),
    categoria: t.string({ description: "Su categoría, que no cambia" }),
    descripcion: t.string({ description: "Su descripción, que no cambia" }),
    es_publica: t.boolean({ description: "Si es público, que no cambia" }),
  }),
});

builder.queryFields((t) => ({
  appSettings: t.field({
    type: [AppSetting],
    description: "Los ajustes de la app: los públicos para quien los pida (publicas: true), todos solo para administradores",
    errors: { types: RESTRICTED, dataField: { description: "Los ajustes" } },
    args: { publicas: t.arg.boolean({ description: "true: solo los públicos, que cualquiera puede leer" }) },
    resolve: (_root, args, ctx) => appSettings(ctx.deps, ctx.actor, args),
  }),
}));

builder.mutationFields((t) => ({
  updateAppSetting: t.field({
    type: AppSetting,
    description: "Cambia el valor de un ajuste de la app, y lo registra en la auditoría (solo administradores)",
    errors: { types: [...RESTRICTED, ValidationError] },
    args: { input: t.arg({ type: AppSettingInput, required: true, description: "El ajuste y su valor" }) },
    resolve: (_root, { input }, ctx) => updateAppSetting(ctx.deps, ctx.actor, input),
  }),
}));
