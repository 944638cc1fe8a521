import { affiliationHistory, endAffiliation, leaveCompany } from "../../domain/affiliations/changes.js";
import { acceptInvitation, declineInvitation, inviteDriver } from "../../domain/affiliations/invitations.js";
import type { AFFILIATION_ACTIONS, AFFILIATION_STATES } from "../../domain/affiliations/moves.js";
import {
  acceptAffiliation,
  companyAffiliations,
  myAffiliations,
  refuseAffiliation,
  requestAffiliation,
} from "../../domain/affiliations/requests.js";
import { InvalidStateError, RateLimitError, ValidationError } from "../../domain/errors.js";
import { builder } from "../builder.js";
import { LOOKUP, RESTRICTED } from "../errors.js";
import { User } from "./accounts.js";
import { CompanySummary } from "./company-summary.js";
import { describedEnum } from "./enums.js";
import { pageArgs, pageType } from "./lists.js";

type AffiliationState = (typeof AFFILIATION_STATES)[number];
type AffiliationAction = (typeof AFFILIATION_ACTIONS)[number];

const AffiliationStateEnum = describedEnum("EstadoAfiliacion", "Dónde está una solicitud o una invitación a una empresa", {
  solicitada: "El conductor la pidió y la empresa no ha respondido",
  invitada: "La empresa invitó a un correo y nadie ha respondido",
  aceptada: "El otro lado aceptó: el conductor pertenece a la empresa",
  rechazada: "El otro lado no aceptó",
  retirada: "Quedó sin efecto: el conductor pidió otra o cambió de empresa",
} satisfies Record<AffiliationState, string>);

const AffiliationActionEnum = describedEnum("AccionAfiliacion", "Qué cambió la empresa de un conductor", {
  aceptada_por_empresa: "La empresa aceptó la solicitud del conductor",
  aceptada_por_conductor: "El conductor aceptó la invitación de la empresa",
  terminada_por_empresa: "La empresa terminó la afiliación",
  retiro_del_conductor: "El conductor dejó la empresa",
  asignada_por_administrador: "Un administrador la fijó o la quitó",
} satisfies Record<AffiliationAction, string>);

const Affiliation = builder.prismaObject("CompanyAffiliation", {
  name: "SolicitudAfiliacion",
  description: "Un conductor que pide unirse a una empresa, o una empresa que invita a un correo",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "La solicitud" }),
    empresa: t.relation("empresa", { type: CompanySummary, description: "La empresa" }),
    conductor_id: t.exposeInt("conductor_id", {
      nullable: true,
      description: "El conductor (vacío en una invitación que nadie ha aceptado)",
    }),
    conductor_nombre: t.string({
      nullable: true,
      description: "El nombre completo del conductor",
      select: { conductor: { select: { nombre: true, apellido: true } } },
      resolve: (request) => (request.conductor ? `${request.conductor.nombre} ${request.conductor.apellido}` : null),
    }),
    email: t.exposeString("email", { nullable: true, description: "El correo invitado (solo en invitaciones)" }),
    es_invitacion: t.boolean({
      description: "true: la empresa invitó; false: el conductor pidió",
      select: { email: true },
      resolve: (request) => request.email !== null,
    }),
    estado: t.field({ type: AffiliationStateEnum, description: "Dónde está", resolve: (request) => request.estado as AffiliationState }),
    motivo: t.exposeString("motivo", { nullable: true, description: "Por qué se rechazó, si se dijo" }),
    creado_en: t.expose("creado_en", { type: "DateTime", description: "Cuándo se pidió o se invitó" }),
    resuelta_en: t.expose("resuelta_en", { type: "DateTime", nullable: true, description: "Cuándo se respondió" }),
  }),
});

const AffiliationPage = pageType("PaginaSolicitudesAfiliacion", Affiliation, "Una página de solicitudes e invitaciones");

const AffiliationChange = builder.prismaObject("AffiliationChange", {
  name: "CambioAfiliacion",
  description: "Un cambio de la empresa de un conductor: quién, cuándo, de cuál a cuál",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "El cambio" }),
    conductor_id: t.exposeInt("conductor_id", { description: "El conductor" }),
    empresa_anterior_id: t.exposeInt("empresa_anterior_id", { nullable: true, description: "La empresa que tenía (vacío: ninguna)" }),
    empresa_nueva_id: t.exposeInt("empresa_nueva_id", {
      nullable: true,
      description: "La empresa que tiene desde entonces (vacío: ninguna)",
    }),
    accion: t.field({ type: AffiliationActionEnum, description: "Qué lo cambió", resolve: (change) => change.accion as AffiliationAction }),
    actor_id: t.exposeInt("actor_id", { nullable: true, description: "Quién lo hizo" }),
    creado_en: t.expose("creado_en", { type: "DateTime", description: "Cuándo" }),
  }),
});

const requestId = { required: true, description: "La solicitud o invitación" } as const;

builder.queryFields((t) => ({
  myAffiliations: t.field({
    type: [Affiliation],
    description: "Las solicitudes del conductor que llama y las invitaciones a su correo, las abiertas primero",
    errors: { types: RESTRICTED, dataField: { description: "Sus solicitudes e invitaciones" } },
    resolve: (_root, _args, ctx) => myAffiliations(ctx.deps, ctx.actor),
  }),
  companyAffiliations: t.field({
    type: AffiliationPage,
    description: "Las solicitudes e invitaciones de la empresa de quien llama (o de la que un administrador indica), las nuevas primero",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: {
      ...pageArgs,
      estado: t.arg({ type: AffiliationStateEnum, description: "Solo las de este estado" }),
      empresa_id: t.arg.int({ description: "La empresa (solo administradores)" }),
    },
    resolve: (_root, args, ctx) => companyAffiliations(ctx.deps, ctx.actor, args),
  }),
  affiliationHistory: t.field({
    type: [AffiliationChange],
    description:
      "Los cambios de empresa de un conductor, los nuevos primero: el propio conductor, los gestores de su empresa y los administradores",
    errors: { types: [...RESTRICTED, ...LOOKUP], dataField: { description: "Los cambios, del más nuevo al más viejo" } },
    args: { conductor_id: t.arg.int({ description: "El conductor (por defecto, quien llama)" }) },
    resolve: (_root, args, ctx) => affiliationHistory(ctx.deps, ctx.actor, args.conductor_id),
  }),
}));

builder.mutationFields((t) => ({
  requestCompanyAffiliation: t.field({
    type: Affiliation,
    description: "El conductor que llama pide unirse a una empresa activa; su empresa cambia cuando ella acepta",
    errors: { types: [...RESTRICTED, ValidationError, InvalidStateError] },
    args: { empresa_id: t.arg.int({ required: true, description: "La empresa" }) },
    resolve: (_root, args, ctx) => requestAffiliation(ctx.deps, ctx.actor, args.empresa_id),
  }),
  acceptCompanyAffiliation: t.field({
    type: Affiliation,
    description: "La empresa de quien llama acepta la solicitud de un conductor",
    errors: { types: [...RESTRICTED, ...LOOKUP, InvalidStateError] },
    args: { solicitud_id: t.arg.int(requestId) },
    resolve: (_root, args, ctx) => acceptAffiliation(ctx.deps, ctx.actor, args.solicitud_id),
  }),
  refuseCompanyAffiliation: t.field({
    type: Affiliation,
    description: "La empresa de quien llama rechaza la solicitud de un conductor",
    errors: { types: [...RESTRICTED, ...LOOKUP, InvalidStateError] },
    args: { solicitud_id: t.arg.int(requestId), motivo: t.arg.string({ description: "Por qué, si se quiere decir" }) },
    resolve: (_root, args, ctx) => refuseAffiliation(ctx.deps, ctx.actor, args.solicitud_id, args),
  }),
  inviteDriver: t.field({
    type: Affiliation,
    description:
      "La empresa de quien llama invita a un conductor por correo; si el correo no tiene cuenta, se le dice cómo registrarse. Un correo con una invitación abierta recibe esa misma, sin otro correo; pasado el límite de invitaciones por hora de la empresa, RateLimitError",
    errors: { types: [...RESTRICTED, ValidationError, RateLimitError] },
    args: { email: t.arg.string({ required: true, description: "El correo del conductor" }) },
    resolve: (_root, args, ctx) => inviteDriver(ctx.deps, ctx.actor, args),
  }),
  acceptCompanyInvitation: t.field({
    type: Affiliation,
    description: "El conductor que llama acepta la invitación de una empresa",
    errors: { types: [...RESTRICTED, ...LOOKUP, InvalidStateError] },
    args: { solicitud_id: t.arg.int(requestId) },
    resolve: (_root, args, ctx) => acceptInvitation(ctx.deps, ctx.actor, args.solicitud_id),
  }),
  declineCompanyInvitation: t.field({
    type: Affiliation,
    description: "El conductor que llama rechaza la invitación de una empresa",
    errors: { types: [...RESTRICTED, ...LOOKUP, InvalidStateError] },
    args: { solicitud_id: t.arg.int(requestId) },
    resolve: (_root, args, ctx) => declineInvitation(ctx.deps, ctx.actor, args.solicitud_id),
  }),
  endCompanyAffiliation: t.field({
    type: User,
    description: "La empresa de quien llama deja de contar con uno de sus conductores",
    errors: { types: [...RESTRICTED, ...LOOKUP] },
    args: { conductor_id: t.arg.int({ required: true, description: "El conductor" }), motivo: t.arg.string({ description: "Por qué" }) },
    resolve: (_root, args, ctx) => endAffiliation(ctx.deps, ctx.actor, args.conductor_id, args),
  }),
  leaveCompany: t.field({
    type: User,
    description: "El conductor que llama deja su empresa",
    errors: { types: [...RESTRICTED, InvalidStateError] },
    resolve: (_root, _args, ctx) => leaveCompany(ctx.deps, ctx.actor),
  }),
}));
