import { GraphQLError, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from "graphql";
import { compileQuery, isCompiledQuery, type CompiledQuery } from "graphql-jit";
import type { Plugin } from "graphql-yoga";

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

/**
 * Runs the given documents (the legacy routes' own, which never change) as functions compiled
 * from them once with graphql-jit, against the schema of their first execution: it resolves the
 * same fields with the same resolvers as graphql-js, without walking the document each time.
 * Every other document runs as before. A document graphql-jit cannot compile runs as before too.
 */
export function useCompiledDocuments(documents: DocumentNode[]): Pick<Plugin, "onExecute"> {
  // Each document's compiled query once it first ran (null: graphql-jit could not compile it).
  const compiled = new Map<DocumentNode, Compiled | null | undefined>(documents.map((document) => [document, undefined]));
  const compile = (schema: GraphQLSchema, document: DocumentNode): Compiled | null => {
    const result = compileQuery(schema, document);
    return isCompiledQuery(result) ? result : null;
  };
  return {
    onExecute({ args, setExecuteFn }) {
      if (!compiled.has(args.document)) return;
      let query = compiled.get(args.document);
      if (query === undefined) {
        query = compile(args.schema, args.document);
        compiled.set(args.document, query);
      }
      if (!query) return;
      const { query: run } = query;
      setExecuteFn(async (execution: ExecutionArgs) =>
        asGraphQLErrors(
          await run(execution.rootValue, execution.contextValue, asSent(execution.variableValues) as Record<string, unknown>),
        ),
      );
    },
  };
}
