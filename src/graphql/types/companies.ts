import {
  COMPANY_SORTING,
  type COMPANY_STATES,
  createCompany,
  deleteCompany,
  findCompany,
  listCompanies,
  updateCompany,
} from "../../domain/companies/companies.js";
import { ConflictError, ValidationError } from "../../domain/errors.js";
import { Deleted, builder } from "../builder.js";
import { LOOKUP, RESTRICTED } from "../errors.js";
import { describedEnum } from "./enums.js";
import { pageArgs, pageType, sortArgs } from "./lists.js";

type CompanyState = (typeof COMPANY_STATES)[number];

const CompanyStateEnum = describedEnum("EstadoEmpresa", "Si una empresa opera en la plataforma", {
  activa: "Opera",
  inactiva: "No opera por ahora",
} satisfies Record<CompanyState, string>);

const Company = builder.prismaObject("Company", {
  name: "Empresa",
  description: "Una empresa de transporte a la que se afilian conductores",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "La empresa" }),
    nombre: t.exposeString("nombre", { description: "Su nombre" }),
    nit: t.exposeString("nit", { description: "Su NIT, como 900123456-7" }),
    email: t.exposeString("email", { nullable: true, description: "Su correo" }),
    telefono: t.exposeString("telefono", { nullable: true, description: "Su teléfono" }),
    direccion: t.exposeString("direccion", { nullable: true, description: "Su dirección" }),
    // Only CompanyInput's states are ever stored.
    estado: t.field({ type: CompanyStateEnum, description: "Si opera", resolve: (company) => company.estado as CompanyState }),
    creado_en: t.expose("creado_en", { type: "DateTime", description: "Cuándo se registró" }),
    actualizado_en: t.expose("actualizado_en", { type: "DateTime", description: "Cuándo cambió por última vez" }),
    conductores: t.relation("usuarios", { description: "Usuarios afiliados" }),
  }),
});

const CompanyPage = pageType("PaginaEmpresas", Company, "Una página de empresas");

const CompanyInput = builder.inputType("CompanyInput", {
  description: "Los datos de una empresa; al cambiarla, los que no se envían no cambian",
  fields: (t) => ({
    nombre: t.string({ description: "Su nombre (obligatorio al crearla)" }),
    nit: t.string({ description: "Su NIT, por ejemplo 900123456-7 (obligatorio al crearla)" }),
    email: t.string({ description: "Su correo" }),
    telefono: t.string({ description: "Su teléfono (7 a 15 dígitos)" }),
    direccion: t.string({ description: "Su dirección" }),
    estado: t.field({ type: CompanyStateEnum, description: "Si opera (activa por defecto)" }),
  }),
});

const companyId = { description: "La empresa" };

builder.queryFields((t) => ({
  companies: t.field({
    type: CompanyPage,
    description: "Empresas por páginas, filtradas, buscadas y ordenadas (solo administradores)",
    errors: { types: [...RESTRICTED, ValidationError] },
    args: {
      ...pageArgs,
      search: t.arg.string({ description: "Parte del nombre, el NIT, el correo o el teléfono" }),
      estado: t.arg({ type: CompanyStateEnum, description: "Solo las de este estado" }),
      ...sortArgs("OrdenEmpresas", "Por qué se ordena la lista de empresas", COMPANY_SORTING, {
        nombre: "Su nombre",
        id: "Su número",
        nit: "Su NIT",
        estado: "Su estado",
        creado_en: "Cuándo se registró",
      }),
    },
    resolve: (_root, args, ctx) => listCompanies(ctx.deps, ctx.actor, args),
  }),
  company: t.field({
    type: Company,
    description: "Una empresa (solo administradores)",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: { id: t.arg.int({ required: true, ...companyId }) },
    resolve: (_root, args, ctx) => findCompany(ctx.deps, ctx.actor, args.id),
  }),
}));

builder.mutationFields((t) => ({
  createCompany: t.field({
    type: Company,
    description: "Registra una empresa (solo administradores)",
    errors: { types: [...RESTRICTED, ValidationError, ConflictError] },
    args: { input: t.arg({ type: CompanyInput, required: true, description: "Sus datos; nombre y nit son obligatorios" }) },
    resolve: (_root, { input }, ctx) => createCompany(ctx.deps, ctx.actor, input),
  }),
  updateCompany: t.field({
    type: Company,
    description: "Cambia los campos enviados",
    errors: { types: [...RESTRICTED, ...LOOKUP, ConflictError] },
    args: {
      id: t.arg.int({ required: true, ...companyId }),
      input: t.arg({ type: CompanyInput, required: true, description: "Lo que cambia" }),
    },
    resolve: (_root, args, ctx) => updateCompany(ctx.deps, ctx.actor, args.id, args.input),
  }),
  deleteCompany: t.field({
    type: Deleted,
    description: "Elimina la empresa; sus conductores quedan sin afiliación",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: { id: t.arg.int({ required: true, ...companyId }) },
    resolve: (_root, args, ctx) => deleteCompany(ctx.deps, ctx.actor, args.id),
  }),
}));
