import { parse, type DocumentNode, type OperationDefinitionNode } from "graphql";
import type { z } from "zod";

export type Method = "GET" | "POST" | "PUT" | "DELETE";

/**
 * What a route's GraphQL operation answered, as the route reads it. Its shape is the route's own
 * query, and every legacy answer in the tests is checked against the OpenAPI document.
 */
// biome-ignore lint/suspicious/noExplicitAny: typing each query's result would repeat the schema in every route
export type GraphQLData = any;

/**
 * A legacy call described as data: which GraphQL operation it runs, how the legacy request
 * becomes variables, and how the result becomes the legacy body. Routes hold no rules.
 */
export interface LegacyRoute<S extends z.ZodObject = z.ZodObject> {
  method: Method;
  path: string;
  /** Other paths the deployed apps call for this same operation, one per line. */
  aliases?: string[];
  /** What the call does, in a line (the OpenAPI summary). */
  summary: string;
  /**
   * The legacy fields and their types. A field outside them (and outside `spellings` and
   * `ignored`) is refused when nothing else in the call carries data: see the shim.
   */
  input: S;
  /** Other spellings the apps use for input fields: app spelling → name in `input`. */
  spellings?: Record<string, string>;
  /** Fields apps send that this call does not use (client-side estimates, always-null extras). */
  ignored?: string[];
  /** The success body without `success` (and `message`), for the OpenAPI document. */
  output: z.ZodObject;
  /** The legacy field that names the caller (docs/legacy-api.md: userId, usuario_id, conductor_id or admin_id), if the call has one. */
  caller?: string;
  /** Calls anyone may make in every LEGACY_AUTH mode: login, register, the account and phone checks, codes, maps, nearby cars. */
  public?: boolean;
  document: ParsedOperation;
  variables: (input: z.output<S>) => Record<string, unknown>;
  /** GraphQL input names the legacy call spells differently, so error messages use the legacy name. */
  legacyNames?: Record<string, string>;
  /** The legacy body on success, without `success` (always true here). */
  respond: (result: GraphQLData, input: z.output<S>) => Record<string, unknown>;
  /** Calls whose legacy contract demands a JSON Content-Type. */
  requireJsonContentType?: boolean;
  /** The body is multipart/form-data (file uploads) instead of JSON. */
  multipart?: boolean;
}

/** Checks a route against its own input schema, then files it with the others. */
export const defineRoute = <S extends z.ZodObject>(route: LegacyRoute<S>): LegacyRoute =>
  // biome-ignore lint/plugin: `variables` and `respond` take what `input` parses, which is what the generic checked
  route as unknown as LegacyRoute;

export interface ParsedOperation {
  document: DocumentNode;
  /** The response key of the operation's single root field. */
  rootField: string;
}

/** Selected on every root field: a domain error arrives as one of these. */
const LEGACY_ERROR_FRAGMENT = `
fragment LegacyError on Error {
  __typename
  code
  message
  ... on ValidationError { field reason }
  ... on RateLimitError { retry_after_s }
}`;

/** Parses an operation once, with the error fragment (when it spreads it) and any other fragments it spreads. */
export function operation(source: string, ...fragments: string[]): ParsedOperation {
  const errors = source.includes("...LegacyError") ? [LEGACY_ERROR_FRAGMENT] : [];
  const document = parse([source, ...errors, ...fragments].join("\n"));
  const op = document.definitions.find((d): d is OperationDefinitionNode => d.kind === "OperationDefinition");
  const root = op?.selectionSet.selections[0];
  if (op?.selectionSet.selections.length !== 1 || root?.kind !== "Field") {
    throw new Error("A legacy route runs exactly one root field");
  }
  return { document, rootField: root.alias?.value ?? root.name.value };
}
