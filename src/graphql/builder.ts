import SchemaBuilder from "@pothos/core";
import ErrorsPlugin from "@pothos/plugin-errors";
import PrismaPlugin from "@pothos/plugin-prisma";
import { parseInstant } from "../domain/time.js";
import type PrismaTypes from "../generated/pothos-types.js";
import { getDatamodel } from "../generated/pothos-types.js";
import type { Context } from "./context.js";

export interface BuilderTypes {
  Context: Context;
  PrismaTypes: PrismaTypes;
  Scalars: { DateTime: { Input: Date; Output: Date }; File: { Input: File; Output: never } };
  DefaultFieldNullability: false;
}

/** The field builder handed to input types, for helpers that add shared fields. */
export type InputFields = PothosSchemaTypes.InputFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<BuilderTypes>, "InputObject">;

/** The field builder handed to object types of a given shape, for helpers that add shared fields. */
export type ObjectFields<Shape> = PothosSchemaTypes.ObjectFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<BuilderTypes>, Shape>;

export const builder = new SchemaBuilder<BuilderTypes>({
  // Errors before Prisma, so that a Prisma field's domain errors become typed results.
  plugins: [ErrorsPlugin, PrismaPlugin],
  defaultFieldNullability: false,
  // No error is listed by default: each field lists those its resolver can throw (see errors.ts).
  errors: {
    directResult: true,
    defaultUnionOptions: { description: "Lo que responde la operación: su resultado, o uno de los errores que puede dar" },
    defaultResultOptions: { description: "El resultado de la operación cuando sale bien" },
  },
  prisma: {
    client: (ctx) => ctx.deps.db,
    dmmf: getDatamodel(),
    filterConnectionTotalCount: true,
    onUnusedQuery: process.env.NODE_ENV === "production" ? null : "warn",
  },
});

builder.queryType({ description: "Las consultas: leen y no cambian nada" });
builder.mutationType({ description: "Las operaciones que cambian algo" });
builder.subscriptionType({ description: "Lo que se sigue en vivo, por graphql-ws (WebSocket) o SSE" });

builder.scalarType("File", {
  description: "Un archivo enviado con la especificación GraphQL multipart request",
  serialize: () => {
    throw new TypeError("File solo se usa como entrada");
  },
  parseValue: (value) => value as File,
});

builder.scalarType("DateTime", {
  description: "Instante en ISO 8601; se responde en UTC y, sin zona, se lee como hora de Colombia",
  serialize: (value) => value.toISOString(),
  parseValue: (value) => {
    const date = typeof value === "string" ? parseInstant(value) : null;
    if (!date) throw new TypeError("Fecha no válida: use ISO 8601");
    return date;
  },
});

/** What a deletion answers: the record is gone, so only its id remains to show. */
export const Deleted = builder.objectRef<{ id: number }>("Eliminado").implement({
  description: "Un registro eliminado",
  fields: (t) => ({ id: t.exposeInt("id", { description: "El id que tenía" }) }),
});
