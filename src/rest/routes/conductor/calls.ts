import { z } from "zod";
import { legacyId } from "../../legacy-fields.js";
import { defineRoute, operation, type GraphQLData, type LegacyRoute } from "../../route.js";

export const driver = { conductor_id: legacyId() };

/** A GET about the calling driver: one query, and how its result becomes the legacy body. */
export const driverRead = (
  { extra, ...route }: Pick<LegacyRoute, "path" | "aliases" | "summary" | "spellings" | "output"> & { extra?: z.ZodRawShape },
  query: string,
  respond: (result: GraphQLData) => Record<string, unknown>,
  fragments: string[] = [],
) =>
  defineRoute({
    method: "GET",
    ...route,
    input: z.object({ ...driver, ...extra }),
    caller: "conductor_id",
    document: operation(query, ...fragments),
    variables: ({ conductor_id: _caller, ...rest }) => rest,
    respond,
  });
