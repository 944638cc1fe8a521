import { Kind, getOperationAST, type DocumentNode, type OperationDefinitionNode } from "graphql";

/**
 * Label values come from what callers send (paths, operation names), and every new value is a new
 * series kept for the life of the process: each label here has a bounded set of values.
 */

/** Anything outside the known values. */
export const OTHER = "other";

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]);

export const methodLabel = (method: string) => (METHODS.has(method) ? method : OTHER);

/** The route of a request: a known path as it is, anything else `other` (a caller probing random paths adds no series). */
export function routeLabeller(paths: Iterable<string>) {
  const known = new Set(paths);
  return (pathname: string) => (known.has(pathname) ? pathname : OTHER);
}

/** Distinct operation labels one process reports before the rest become `other`. */
export const MAX_OPERATIONS = 100;
/** Longer operation names are not kept; the root fields stand for them. */
const MAX_NAME_LENGTH = 64;

/** The names of an operation's root fields (a subscription has exactly one). */
const rootFields = (operation: OperationDefinitionNode) =>
  operation.selectionSet.selections.flatMap((selection) => (selection.kind === Kind.FIELD ? [selection.name.value] : []));

/** A subscription's root field (GraphQL allows one), named in a validated document, so one of the schema's. */
export function subscriptionField(document: DocumentNode, operationName?: string | null): string {
  const operation = getOperationAST(document, operationName);
  return (operation && rootFields(operation)[0]) ?? OTHER;
}

/**
 * An operation's label: its name, or its root fields when it has none (or one too long). Names
 * are the client's choice, so only the first MAX_OPERATIONS distinct labels are kept; after them every
 * new one is `other`.
 */
export function operationLabeller() {
  const seen = new Set<string>();
  return (operation: OperationDefinitionNode) => {
    const name = operation.name?.value;
    const label = name && name.length <= MAX_NAME_LENGTH ? name : [...new Set(rootFields(operation))].sort().join("+") || OTHER;
    if (seen.has(label)) return label;
    if (seen.size >= MAX_OPERATIONS) return OTHER;
    seen.add(label);
    return label;
  };
}
