import { createCompany, deleteCompany, findCompany, listCompanies, updateCompany } from "../../domain/companies/companies.js";
import { ConflictError, ValidationError } from "../../domain/errors.js";
import { Deleted, builder } from "../builder.js";
import { LOOKUP, RESTRICTED } from "../errors.js";

const Company = builder.prismaObject("Company", {
  name: "Empresa",
  fields: (t) => ({
    id: t.exposeInt("id"),
    nombre: t.exposeString("nombre"),
    nit: t.exposeString("nit"),
    email: t.exposeString("email", { nullable: true }),
    telefono: t.exposeString("telefono", { nullable: true }),
    direccion: t.exposeString("direccion", { nullable: true }),
    estado: t.exposeString("estado", { description: "activa o inactiva" }),
    creado_en: t.expose("creado_en", { type: "DateTime" }),
    actualizado_en: t.expose("actualizado_en", { type: "DateTime" }),
    conductores: t.relation("usuarios", { description: "Usuarios afiliados" }),
  }),
});

const CompanyInput = builder.inputType("CompanyInput", {
  fields: (t) => ({
    nombre: t.string(),
    nit: t.string({ description: "Por ejemplo 900123456-7" }),
    email: t.string(),
    telefono: t.string(),
    direccion: t.string(),
    estado: t.string({ description: "activa o inactiva" }),
  }),
});

builder.queryFields((t) => ({
  companies: t.field({
    type: [Company],
    description: "Empresas (solo administradores)",
    errors: { types: RESTRICTED },
    resolve: (_root, _args, ctx) => listCompanies(ctx.deps, ctx.actor),
  }),
  company: t.field({
    type: Company,
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => findCompany(ctx.deps, ctx.actor, args.id),
  }),
}));

builder.mutationFields((t) => ({
  createCompany: t.field({
    type: Company,
    errors: { types: [...RESTRICTED, ValidationError, ConflictError] },
    args: { input: t.arg({ type: CompanyInput, required: true }) },
    resolve: (_root, { input }, ctx) => createCompany(ctx.deps, ctx.actor, input),
  }),
  updateCompany: t.field({
    type: Company,
    description: "Cambia los campos enviados",
    errors: { types: [...RESTRICTED, ...LOOKUP, ConflictError] },
    args: { id: t.arg.int({ required: true }), input: t.arg({ type: CompanyInput, required: true }) },
    resolve: (_root, args, ctx) => updateCompany(ctx.deps, ctx.actor, args.id, args.input),
  }),
  deleteCompany: t.field({
    type: Deleted,
    description: "Elimina la empresa; sus conductores quedan sin afiliación",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => deleteCompany(ctx.deps, ctx.actor, args.id),
  }),
}));
