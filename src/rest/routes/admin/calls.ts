import { z } from "zod";
import { optional } from "../../../domain/validation.js";
import { legacyId, legacyInt } from "../../legacy-fields.js";
import { defineRoute, operation, type GraphQLData, type LegacyRoute } from "../../route.js";

/** What the administrators' calls answer in: whole numbers and amounts. */
export const int = z.int();
export const amount = z.number();

export const admin = { admin_id: legacyId() };

// The suspend, activate, approve and reject calls of the old interface name no administrator.
export const maybeAdmin = { admin_id: optional(legacyId()) };

/**
 * A paged administrator listing; pingo's admin screens read the page under data, so it is there
 * too, in the app's words when `inApp` says how.
 */
export const adminPage = <P extends z.ZodObject>({
  filters,
  page,
  toPage,
  inApp,
  ...route
}: Pick<LegacyRoute, "path" | "aliases" | "summary" | "spellings" | "legacyNames" | "document"> & {
  filters: z.ZodRawShape;
  page: P;
  toPage: (result: GraphQLData) => z.output<P>;
  inApp?: { page: z.ZodObject; from: (page: z.output<P>) => Record<string, unknown> };
}) =>
  defineRoute({
    method: "GET",
    ...route,
    input: z.object({ ...admin, page: optional(legacyInt()), per_page: optional(legacyInt()), ...filters }),
    caller: "admin_id",
    variables: ({ admin_id: _caller, ...rest }) => rest,
    output: z.object({ ...page.shape, data: inApp?.page ?? page }),
    respond: (result) => {
      const legacyPage = toPage(result);
      return { ...legacyPage, data: inApp ? inApp.from(legacyPage) : legacyPage };
    },
  });

/** An administrator call answered with only a message, which may say what the result was. */
export const adminChange = (
  method: "POST" | "PUT" | "DELETE",
  { path, aliases, summary, ignored }: { path: string; aliases?: string[]; summary: string; ignored?: string[] },
  input: z.ZodObject,
  mutation: string,
  message: string | ((result: GraphQLData) => string),
) =>
  defineRoute({
    method,
    path,
    aliases,
    summary,
    ignored,
    input,
    caller: "admin_id",
    document: operation(mutation),
    variables: ({ admin_id: _caller, ...rest }) => rest,
    output: z.object({}),
    respond: (result) => ({ message: typeof message === "string" ? message : message(result) }),
  });
