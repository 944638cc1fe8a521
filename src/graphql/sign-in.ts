import {
  GraphQLError,
  Kind,
  getOperationAST,
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import { signInRequired, type Actor } from "../domain/actor.js";
import type { Context } from "./context.js";

/** Field options of the operations anyone may call: login, sign-up, e-mail checks, maps, quotes. */
export const PUBLIC = { extensions: { public: true } } as const;

/** The root fields an operation selects, through inline fragments and fragment spreads. */
function rootFields(selectionSet: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>): string[] {
  return selectionSet.selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [selection.name.value];
    const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value);
    return fragment ? rootFields(fragment.selectionSet, fragments) : [];
  });
}

function onlyPublic(schema: GraphQLSchema, document: DocumentNode, operationName?: string | null): boolean {
  const operation = getOperationAST(document, operationName);
  const root: GraphQLObjectType | null | undefined = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return true;
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const fields = root.getFields();
  return rootFields(operation.selectionSet, fragments).every((name) => name.startsWith("__") || fields[name]?.extensions.public === true);
}

/**
 * Denies by default: an operation that selects anything but public fields is refused before it
 * runs when nobody is signed in, with HTTP 401, so a client whose token expired or was revoked
 * hears it at once. Each area's rules check again inside, for every other caller.
 */
export function signInRefusal(
  actor: Actor,
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName?: string | null,
): GraphQLError | null {
  if (actor.kind !== "anonymous" || onlyPublic(schema, document, operationName)) return null;
  const error = signInRequired(actor);
  const http = { status: 401, headers: { "www-authenticate": "Bearer" } };
  return new GraphQLError(error.message, { extensions: { code: error.code, http } });
}

/** signInRefusal before every operation Yoga runs. */
export function useSignInRequired(): Plugin<Context> {
  // What onExecute and onSubscribe are both given.
  type Payload = {
    args: { contextValue: Context; schema: GraphQLSchema; document: DocumentNode; operationName?: string | null };
    setResultAndStopExecution(result: ExecutionResult): void;
  };
  const gate = ({ args, setResultAndStopExecution }: Payload) => {
    const refusal = signInRefusal(args.contextValue.actor, args.schema, args.document, args.operationName);
    if (refusal) setResultAndStopExecution({ errors: [refusal] });
  };
  return { onExecute: gate, onSubscribe: gate };
}
