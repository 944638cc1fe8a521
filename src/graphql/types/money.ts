import { driverBalance, type DriverBalance } from "../../domain/money/balance.js";
import { builder } from "../builder.js";
import { LOOKUP, RESTRICTED } from "../errors.js";

const DriverBalanceRef = builder.objectRef<DriverBalance>("SaldoConductor").implement({
  description: "El saldo de un conductor en el libro de la plataforma, en pesos enteros",
  fields: (t) => ({
    conductor_id: t.exposeInt("conductor_id", { description: "El conductor" }),
    saldo: t.exposeInt("saldo", {
      description:
        "Lo que la plataforma le debe (positivo: ganancias de viajes que cobró la plataforma) menos lo que él le debe " +
        "(negativo: comisiones de viajes que cobró en efectivo)",
    }),
    disponible: t.exposeInt("disponible", { description: "Lo que la plataforma le debe, o 0" }),
    deuda: t.exposeInt("deuda", { description: "Lo que él le debe a la plataforma, o 0" }),
  }),
});

builder.queryFields((t) => ({
  driverBalance: t.field({
    type: DriverBalanceRef,
    description: "El saldo de quien llama (conductor), o de otro conductor para un administrador",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: { conductor_id: t.arg.int({ description: "Otro conductor (solo administradores); por defecto quien llama" }) },
    resolve: (_root, args, ctx) => driverBalance(ctx.deps, ctx.actor, args.conductor_id),
  }),
}));
