import type { CompanyState } from "../../domain/company-records.js";
import { builder } from "../builder.js";

/** What anyone related to a company may know of it: a driver of it, someone it invited, its managers. */
export const CompanySummary = builder.prismaObject("Company", {
  variant: "EmpresaResumen",
  description: "Una empresa, como la ven sus conductores y quienes se relacionan con ella",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "La empresa" }),
    nombre: t.exposeString("nombre", { description: "Su nombre" }),
    nit: t.exposeString("nit", { description: "Su NIT" }),
    // The same states as Empresa.estado, as text so that this type stands alone.
    estado: t.string({
      description: "pendiente, activa, rechazada, suspendida o inactiva",
      resolve: (company) => company.estado as CompanyState,
    }),
  }),
});
