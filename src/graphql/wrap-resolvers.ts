import { isObjectType, type GraphQLField, type GraphQLFieldResolver, type GraphQLSchema } from "graphql";

type Resolver = GraphQLFieldResolver<unknown, unknown>;
/** A wrapper's resolver for a field in place of `resolve`, or null to leave the field as it is. */
export type ResolverWrap = (resolve: Resolver, field: GraphQLField<unknown, unknown>) => Resolver | null;

const wrapped = new WeakMap<ResolverWrap, WeakSet<GraphQLSchema>>();

/**
 * Puts `wrap`'s resolver in place of every object field's that has one, once per schema and
 * wrapper: the schema is shared by every server of the process, and a wrapped field is never
 * wrapped by the same wrapper again.
 */
export function wrapResolvers(schema: GraphQLSchema, wrap: ResolverWrap): void {
  let schemas = wrapped.get(wrap);
  if (!schemas) {
    schemas = new WeakSet();
    wrapped.set(wrap, schemas);
  }
  if (schemas.has(schema)) return;
  schemas.add(schema);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const replaced = field.resolve && wrap(field.resolve, field);
      if (replaced) field.resolve = replaced;
    }
  }
}
