import { Repeater } from "graphql-yoga";
import type { Trip } from "../../db/models.js";
import { ValidationError } from "../../domain/errors.js";
import { type LiveDriver, liveDrivers, LOOK_EVERY_MS, watchOperations } from "../../domain/admin/live-map.js";
import { builder } from "../builder.js";
import { RESTRICTED } from "../errors.js";
import { describedEnum, VehicleTypeEnum } from "./enums.js";
import { TripRef } from "./trip.js";

const LiveState = describedEnum("EstadoConductorEnVivo", "Qué hace ahora un conductor conectado", {
  libre: "Libre para un viaje",
  en_viaje: "Con un viaje asignado",
  documentos_vencidos: "Conectado, pero un documento se venció: no recibe viajes",
} satisfies Record<LiveDriver["estado"], string>);

const LiveDriverRef = builder.objectRef<LiveDriver>("ConductorEnVivo").implement({
  description: "Un conductor conectado, en el mapa de operaciones",
  fields: (t) => ({
    conductor_id: t.exposeInt("conductor_id", { description: "El conductor" }),
    nombre: t.exposeString("nombre", { description: "Su nombre y apellido" }),
    tipo_vehiculo: t.field({ type: VehicleTypeEnum, description: "Su vehículo", resolve: (driver) => driver.tipo_vehiculo }),
    estado: t.field({ type: LiveState, description: "Qué hace ahora", resolve: (driver) => driver.estado }),
    latitud: t.exposeFloat("latitud", { description: "Aproximada (tres decimales, unos 110 m)" }),
    longitud: t.exposeFloat("longitud", { description: "Aproximada (tres decimales, unos 110 m)" }),
    posicion_en: t.expose("posicion_en", { type: "DateTime", description: "Cuándo informó esa posición" }),
    viaje_activo_id: t.exposeInt("viaje_activo_id", { nullable: true, description: "El viaje que atiende, si tiene uno" }),
  }),
});

interface LiveChanges {
  conductores: LiveDriver[];
  salidas: number[];
  viajes: Trip[];
}

const LiveChangesRef = builder.objectRef<LiveChanges>("CambiosOperaciones").implement({
  description: "Lo que cambió en el mapa de operaciones",
  fields: (t) => ({
    conductores: t.field({
      type: [LiveDriverRef],
      description: "Conductores que aparecieron, se movieron o cambiaron de estado (todos los del área en el primer envío)",
      resolve: (changes) => changes.conductores,
    }),
    salidas: t.exposeIntList("salidas", { description: "Conductores que se desconectaron o salieron del área" }),
    viajes: t.field({ type: [TripRef], description: "Viajes pedidos o que cambiaron", resolve: (changes) => changes.viajes }),
  }),
});

const boxArgs = (required: boolean) =>
  builder.args((t) => ({
    norte: t.float({ required, description: "Latitud del borde norte" }),
    sur: t.float({ required, description: "Latitud del borde sur" }),
    este: t.float({ required, description: "Longitud del borde este" }),
    oeste: t.float({ required, description: "Longitud del borde oeste" }),
  }));

builder.queryFields((t) => ({
  liveDrivers: t.field({
    type: [LiveDriverRef],
    description: "Los conductores conectados con posición dentro del área, en todos los procesos (solo administradores)",
    errors: { types: [...RESTRICTED, ValidationError], dataField: { description: "Los conductores del área" } },
    args: boxArgs(true),
    resolve: (_root, args, ctx) => liveDrivers(ctx.deps, ctx.actor, args),
  }),
}));

builder.subscriptionFields((t) => ({
  liveOperations: t.field({
    type: LiveChangesRef,
    description:
      "El mapa de operaciones en vivo: primero los conductores del área, luego cada segundo los que se movieron, cambiaron o " +
      "salieron, y cada viaje en cuanto se pide o cambia; sin área, toda la ciudad. Los administradores ven todo (o una empresa, " +
      "si la indican); un gestor, solo los conductores de su empresa y los viajes hechos para ella, sin el pasajero. " +
      "Termina si el token se revoca",
    args: {
      ...boxArgs(false),
      empresa_id: t.arg.int({ description: "Solo los conductores y viajes de esta empresa (un gestor ve siempre la suya)" }),
    },
    subscribe: async (_root, args, ctx) => {
      const watch = await watchOperations(ctx.deps, ctx.actor, args);
      return new Repeater<LiveChanges>(async (push, stop) => {
        const trips = ctx.pubsub.subscribe("viajes");
        const accounts = ctx.pubsub.subscribe("cuenta_cambiada");
        void stop.then(() => Promise.all([trips.return(), accounts.return()]));
        const first = trips.next();
        // A driver who changes company is read again, so that the old company's map loses them.
        void (async () => {
          for await (const { usuario_id } of accounts) watch.forget(usuario_id);
        })();
        let looking: Promise<unknown> = Promise.resolve();
        const lookAgain = (always: boolean) => {
          looking = watch
            .look()
            .then(({ conductores, salidas }) => {
              if (always || conductores.length > 0 || salidas.length > 0) return push({ conductores, salidas, viajes: [] });
            })
            // The database may be away for a moment: the next look sends what this one could not.
            .catch((error: unknown) => ctx.deps.log.debug({ err: error }, "live operations: a look failed"));
        };
        lookAgain(true);
        const timer = setInterval(() => void looking.then(() => lookAgain(false)), LOOK_EVERY_MS);
        void stop.then(() => clearInterval(timer));
        for (let step = await first; !step.done; step = await trips.next()) {
          const trip = watch.trip(step.value);
          if (trip) await push({ conductores: [], salidas: [], viajes: [trip] });
        }
        clearInterval(timer);
        stop();
      });
    },
    resolve: (changes) => changes,
  }),
}));
