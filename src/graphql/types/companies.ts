import {
  COMPANY_SORTING,
  createCompany,
  deleteCompany,
  findCompany,
  listCompanies,
  updateCompany,
} from "../../domain/companies/companies.js";
import type { COMPANY_STATES } from "../../domain/company-records.js";
import { ownCompany } from "../../domain/company-scope.js";
import { inviteManager, listManagers, removeManager } from "../../domain/companies/managers.js";
import { approveCompany, refuseCompany } from "../../domain/companies/review.js";
import { setCompanyShare } from "../../domain/companies/share.js";
import { ConflictError, InvalidStateError, ValidationError } from "../../domain/errors.js";
import { Deleted, builder } from "../builder.js";
import { LOOKUP, RESTRICTED } from "../errors.js";
import { describedEnum } from "./enums.js";
import { pageArgs, pageType, sortArgs } from "./lists.js";

type CompanyState = (typeof COMPANY_STATES)[number];

const CompanyStateEnum = describedEnum("EstadoEmpresa", "Si una empresa opera en la plataforma", {
  pendiente: "Se registró y espera la revisión de un administrador",
  activa: "Opera",
  rechazada: "Un administrador la rechazó al revisarla",
  suspendida: "Suspendida por un administrador: sus gestores solo consultan su estado",
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
    // Only COMPANY_STATES are ever stored.
    estado: t.field({ type: CompanyStateEnum, description: "Si opera", resolve: (company) => company.estado as CompanyState }),
    porcentaje_comision: t.exposeFloat("porcentaje_comision", {
      description: "Su parte (%) de la comisión de la plataforma en los viajes de sus conductores",
    }),
    motivo_rechazo: t.exposeString("motivo_rechazo", { nullable: true, description: "Por qué se rechazó, si se rechazó" }),
    revisada_en: t.expose("revisada_en", { type: "DateTime", nullable: true, description: "Cuándo la revisó un administrador" }),
    creado_en: t.expose("creado_en", { type: "DateTime", description: "Cuándo se registró" }),
    actualizado_en: t.expose("actualizado_en", { type: "DateTime", description: "Cuándo cambió por última vez" }),
    conductores: t.relation("usuarios", { description: "Sus conductores", query: { where: { tipo_usuario: "conductor" } } }),
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
    estado: t.field({ type: CompanyStateEnum, description: "Si opera (activa por defecto): activa, suspendida o inactiva" }),
  }),
});

const ManagerInput = builder.inputType("ManagerInput", {
  description: "Una persona que gestionará una empresa; recibe un correo para crear su contraseña",
  fields: (t) => ({
    email: t.string({ required: true, description: "Su correo, con el que entrará" }),
    nombre: t.string({ required: true, description: "Nombre" }),
    apellido: t.string({ required: true, description: "Apellido" }),
    telefono: t.string({ required: true, description: "Teléfono (7 a 15 dígitos)" }),
  }),
});

const Manager = builder.prismaObject("User", {
  variant: "GestorEmpresa",
  description: "Una cuenta que gestiona una empresa",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "La cuenta" }),
    nombre: t.exposeString("nombre", { description: "Nombre" }),
    apellido: t.exposeString("apellido", { description: "Apellido" }),
    email: t.exposeString("email", { description: "Correo" }),
    telefono: t.exposeString("telefono", { description: "Teléfono" }),
    es_verificado: t.exposeBoolean("es_verificado", { description: "Si ya creó su contraseña con el código que se le envió" }),
    creado_en: t.expose("creado_en", { type: "DateTime", description: "Desde cuándo gestiona la empresa" }),
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
  myCompany: t.field({
    type: Company,
    description: "La empresa de quien llama, un gestor, en cualquier estado: lo único que ve mientras espera la revisión",
    errors: { types: RESTRICTED },
    resolve: (_root, _args, ctx) => ownCompany(ctx.deps, ctx.actor),
  }),
  companyManagers: t.field({
    type: [Manager],
    description: "Los gestores de la empresa de quien llama, o de la que un administrador indica",
    errors: { types: [...RESTRICTED, ...LOOKUP], dataField: { description: "Sus gestores, el más antiguo primero" } },
    args: { empresa_id: t.arg.int({ description: "La empresa (solo administradores; un gestor ve la suya)" }) },
    resolve: (_root, args, ctx) => listManagers(ctx.deps, ctx.actor, args.empresa_id),
  }),
}));

builder.mutationFields((t) => ({
  createCompany: t.field({
    type: Company,
    description: "Registra una empresa y, si se envía, su primer gestor (solo administradores)",
    errors: { types: [...RESTRICTED, ValidationError, ConflictError] },
    args: {
      input: t.arg({ type: CompanyInput, required: true, description: "Sus datos; nombre y nit son obligatorios" }),
      gestor: t.arg({ type: ManagerInput, description: "Su primer gestor: recibe un correo para crear su contraseña" }),
    },
    resolve: (_root, { input, gestor }, ctx) => createCompany(ctx.deps, ctx.actor, { ...input, gestor }),
  }),
  setCompanyShare: t.field({
    type: Company,
    description:
      "Fija la parte (%) de la comisión de la plataforma que se le paga a una empresa; rige para los viajes pedidos desde ahora (solo administradores)",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: {
      id: t.arg.int({ required: true, ...companyId }),
      porcentaje: t.arg.float({ required: true, description: "De 0 a 100, con hasta dos decimales" }),
    },
    resolve: (_root, args, ctx) => setCompanyShare(ctx.deps, ctx.actor, args.id, args),
  }),
  approveCompany: t.field({
    type: Company,
    description: "Aprueba una empresa pendiente y avisa a sus gestores (solo administradores)",
    errors: { types: [...RESTRICTED, ...LOOKUP, InvalidStateError] },
    args: { id: t.arg.int({ required: true, ...companyId }) },
    resolve: (_root, args, ctx) => approveCompany(ctx.deps, ctx.actor, args.id),
  }),
  refuseCompany: t.field({
    type: Company,
    description: "Rechaza una empresa pendiente con un motivo que se les dice a sus gestores (solo administradores)",
    errors: { types: [...RESTRICTED, ...LOOKUP, InvalidStateError] },
    args: {
      id: t.arg.int({ required: true, ...companyId }),
      motivo: t.arg.string({ required: true, description: "Por qué se rechaza" }),
    },
    resolve: (_root, args, ctx) => refuseCompany(ctx.deps, ctx.actor, args.id, args),
  }),
  inviteCompanyManager: t.field({
    type: Manager,
    description: "Un gestor invita a otra persona a gestionar su empresa: se le crea la cuenta y recibe un correo para crear su contraseña",
    errors: { types: [...RESTRICTED, ValidationError, ConflictError] },
    args: { input: t.arg({ type: ManagerInput, required: true, description: "La persona" }) },
    resolve: (_root, { input }, ctx) => inviteManager(ctx.deps, ctx.actor, input),
  }),
  removeCompanyManager: t.field({
    type: Manager,
    description: "Quita a un gestor de la empresa y cierra su cuenta; el último gestor no se puede quitar",
    errors: { types: [...RESTRICTED, ...LOOKUP, InvalidStateError] },
    args: { usuario_id: t.arg.int({ required: true, description: "El gestor" }) },
    resolve: (_root, args, ctx) => removeManager(ctx.deps, ctx.actor, args.usuario_id),
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
