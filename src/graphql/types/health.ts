import { serviceStatus } from "../../domain/health.js";
import { PUBLIC } from "../sign-in.js";
import { builder } from "../builder.js";

const ServiceStatus = builder.objectRef<Awaited<ReturnType<typeof serviceStatus>>>("EstadoServicio").implement({
  description: "El servicio responde y alcanza su base de datos",
  fields: (t) => ({
    base_de_datos: t.exposeString("base_de_datos", { description: "Siempre 'conectada': sin base de datos la consulta falla con 503" }),
    fecha: t.field({ type: "DateTime", description: "Hora del servidor", resolve: (status) => status.fecha }),
  }),
});

builder.queryFields((t) => ({
  serviceStatus: t.field({
    ...PUBLIC,
    type: ServiceStatus,
    description: "Comprobación de salud para clientes: no dice nada del negocio",
    resolve: (_root, _args, ctx) => serviceStatus(ctx.deps),
  }),
}));
