import {
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isInputType,
  isNonNullType,
  isObjectType,
  isInterfaceType,
} from "graphql";

/**
 * Every field a type offers, as a selection: scalars and enums by name, objects expanded in turn,
 * unions and interfaces through an inline fragment per possible type. A type already being expanded
 * on the way down is selected by `__typename` only, so that cycles end; each of its fields is still
 * selected where it is first reached. Fields that need an argument nobody can guess are reported in
 * `needsArguments` rather than left out silently.
 */
function fullSelection(schema: GraphQLSchema, type: GraphQLNamedType) {
  const needsArguments = new Set<string>();

  function fields(owner: GraphQLNamedType, path: ReadonlySet<string>): string {
    if (isAbstractType(owner)) {
      const branches = schema.getPossibleTypes(owner).map((possible) => `... on ${possible.name} { ${fields(possible, path)} }`);
      return ["__typename", ...branches].join(" ");
    }
    if (!isObjectType(owner) && !isInterfaceType(owner)) return "";
    if (path.has(owner.name)) return "__typename";
    const inside = new Set(path).add(owner.name);
    const selected = Object.values(owner.getFields()).flatMap((field: GraphQLField<unknown, unknown>) => {
      if (field.args.some((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined && isInputType(arg.type))) {
        needsArguments.add(`${owner.name}.${field.name}`);
        return [];
      }
      const target = getNamedType(field.type);
      const nested = fields(target, inside);
      return [nested ? `${field.name} { ${nested} }` : field.name];
    });
    return ["__typename", ...selected].join(" ");
  }

  return { selection: fields(type, new Set()), needsArguments };
}

/** The selection of a root field's result: its named output type, whole. */
export function rootFieldSelection(schema: GraphQLSchema, root: "Query" | "Subscription", name: string) {
  const owner = root === "Query" ? schema.getQueryType() : schema.getSubscriptionType();
  const field = owner?.getFields()[name];
  if (!field) throw new Error(`${root}.${name} does not exist`);
  return fullSelection(schema, getNamedType(field.type));
}
