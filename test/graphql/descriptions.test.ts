import {
  type GraphQLNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  isSpecifiedScalarType,
} from "graphql";
import { describe, expect, it } from "vitest";
import { schema } from "../../src/graphql/schema.js";

/** Everything in a type that a client's generated code documents: the type, its fields, their arguments, its values. */
function undescribed(type: GraphQLNamedType): string[] {
  const missing = type.description ? [] : [type.name];
  if (isObjectType(type) || isInterfaceType(type)) {
    for (const field of Object.values(type.getFields())) {
      if (!field.description) missing.push(`${type.name}.${field.name}`);
      for (const arg of field.args) if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
    }
  } else if (isInputObjectType(type)) {
    for (const field of Object.values(type.getFields())) if (!field.description) missing.push(`${type.name}.${field.name}`);
  } else if (isEnumType(type)) {
    for (const value of type.getValues()) if (!value.description) missing.push(`${type.name}.${value.name}`);
  }
  return missing;
}

describe("the schema's descriptions", () => {
  it("describe every type, field, argument and enum value (GraphQL's own types aside)", () => {
    const missing = Object.values(schema.getTypeMap())
      .filter((type) => !isIntrospectionType(type) && !isSpecifiedScalarType(type))
      .flatMap(undescribed);
    expect(missing).toEqual([]);
  });
});
