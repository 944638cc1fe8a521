import { execute, getNamedType, GraphQLError, isLeafType, type DocumentNode, type ExecutionResult, type GraphQLSchema } from "graphql";
import type { Path } from "graphql/jsutils/Path.js";
import { compileQuery, isCompiledQuery, type CompiledQuery } from "graphql-jit";
import { wrapResolvers, type ResolverWrap } from "../graphql/wrap-resolvers.js";

type Compiled = Pick<CompiledQuery, "query">;

/**
 * graphql-jit's errors carry no `extensions` unless their cause had some, unlike graphql-js's: the
 * masking and the metrics read every error's `extensions`, so each becomes graphql-js's own.
 */
function asGraphQLErrors(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.length) return result;
  const errors = result.errors.map(
    (error) => new GraphQLError(error.message, { path: error.path, originalError: error.originalError, extensions: error.extensions }),
  );
  return { ...result, errors };
}

/**
 * Variables as JSON would carry them: a field left undefined is not there at all. graphql-jit reads
 * one as null, which would clear what the caller did not send; graphql-js leaves it out.
 */
function asSent(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asSent);
  if (value === null || typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const sent: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) if (field !== undefined) sent[name] = asSent(field);
  return sent;
}

/** Each jit execution's paths, by context: the one object for each path, made the first time it is met. */
const pathsOf = new WeakMap<object, Map<Path | undefined, Map<string | number, Path>>>();

/** The one object of the execution's `paths` that stands for `path`. */
function intern(paths: Map<Path | undefined, Map<string | number, Path>>, path: Path | undefined): Path | undefined {
  if (!path) return undefined;
  const prev = intern(paths, path.prev);
  let children = paths.get(prev);
  if (!children) {
    children = new Map();
    paths.set(prev, children);
  }
  let own = children.get(path.key);
  if (!own) {
    own = { key: path.key, prev, typename: path.typename };
    children.set(path.key, own);
  }
  return own;
}

/**
 * graphql-jit hands every resolver a path object of its own, where graphql-js hands a field's
 * children the very object its own resolver got. Pothos's prisma plugin finds what a field's
 * parent loaded by that object (see node_modules/@pothos/selection-mapper/esm/loader-map.js): on a
 * new object it finds nothing and reads the rows again. So, in jit executions, each field's
 * resolver gets the one object of its path: every field that may record what it loaded (any
 * field with subfields) or look it up (a field with its own selection). Other leaves need none.
 */
const internPaths: ResolverWrap = (resolve, field) =>
  isLeafType(getNamedType(field.type)) && !field.extensions.pothosPrismaSelect
    ? null
    : (source, args, context, info) => {
        const paths = pathsOf.get(context as object);
        return resolve(source, args, context, paths ? { ...info, path: intern(paths, info.path)! } : info);
      };

/** Runs a document against the schema: what an operation of the legacy shim resolves to. */
export type DocumentRunner = (document: DocumentNode, contextValue: object, variables: Record<string, unknown>) => Promise<ExecutionResult>;

/**
 * Runs documents that never change (the legacy routes' own) as functions compiled from each once,
 * at its first run, with graphql-jit: the same fields with the same resolvers as graphql-js,
 * without walking the document each time. A document graphql-jit cannot compile runs on graphql-js.
 * Compiling waits for that first run, after every server plugin has wrapped the schema's resolvers
 * (wrap-resolvers.ts): a compiled query keeps the resolvers it was compiled with.
 */
export function documentRunner(schema: GraphQLSchema): DocumentRunner {
  wrapResolvers(schema, internPaths);
  // Each document's compiled query once it first ran (null: graphql-jit could not compile it).
  const compiled = new Map<DocumentNode, Compiled | null>();
  return async (document, contextValue, variables) => {
    let query = compiled.get(document);
    if (query === undefined) {
      const result = compileQuery(schema, document);
      query = isCompiledQuery(result) ? result : null;
      compiled.set(document, query);
    }
    if (!query) return execute({ schema, document, contextValue, variableValues: variables });
    pathsOf.set(contextValue, new Map());
    return asGraphQLErrors(await query.query(undefined, contextValue, asSent(variables) as Record<string, unknown>));
  };
}
