import { readFileSync } from "node:fs";
import { z } from "zod";
import type { LegacyRoute } from "./route.js";
import { LEGACY_STATUS } from "./status.js";

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) or any other OpenAPI object. */
// biome-ignore lint/suspicious/noExplicitAny: these objects nest freely; they are built here, and the tests validate the document
type Json = Record<string, any>;

const PACKAGE_VERSION: string = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * What a legacy field's preprocess (src/rest/legacy-fields.ts) lets through besides its own type:
 * for each type, a value to try it on, what that value must become, and how to document it.
 */
const LENIENCY: Record<string, { sample: unknown; becomes: unknown; also: Json }> = {
  integer: {
    sample: "12",
    becomes: 12,
    also: { type: "string", pattern: "^\\s*[-+]?\\d+\\s*$", description: "the same integer, as text" },
  },
  number: {
    sample: "1.5",
    becomes: 1.5,
    also: { type: "string", pattern: "^\\s*[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?\\s*$", description: "the same number, as text" },
  },
  string: { sample: 12, becomes: "12", also: { type: "number", description: "a number, read as its text" } },
  boolean: {
    sample: "1",
    becomes: true,
    also: { enum: ["1", "0", "true", "false", 1, 0], description: "1/0 or true/false, as text or number" },
  },
};

/** An upload's file part: JSON Schema has no file type, so OpenAPI describes it as binary text. */
const FILE: z.core.JSONSchema.JSONSchema = { type: "string", format: "binary", contentMediaType: "application/octet-stream" };

/** `json` becomes "json, or `also`", in place: the enclosing object and nullable schemas hold this very object. */
function widen(json: Json, also: Json): void {
  const own = { ...json };
  for (const key of Object.keys(json)) delete json[key];
  json.anyOf = [own, also];
}

/**
 * zod documents a `z.preprocess` as its inner schema, but the legacy ones are there to let "12"
 * through as 12 (query strings are always text, and old apps send numbers as text in JSON too).
 * Which values a preprocess converts is read off the function itself, by trying it, rather than
 * guessed: a field, or the fields of an object (a legacy place converts its coordinates).
 */
function documentPreprocess(zodSchema: z.core.$ZodType, json: Json): void {
  if (!zodSchema._zod.traits.has("$ZodPreprocess")) return;
  const convert = (zodSchema as z.core.$ZodPreprocess)._zod.def.in._zod.def.transform;
  const becomes = (value: unknown, expected: (result: unknown) => boolean) => {
    try {
      return expected(convert(value, { value, issues: [], addIssue() {} } as never));
    } catch {
      return false;
    }
  };
  const leniency = LENIENCY[json.type];
  if (leniency && becomes(leniency.sample, (result) => Object.is(result, leniency.becomes))) widen(json, leniency.also);
  if (json.type !== "object" || !json.properties) return;
  // A new properties object: the ones inside belong to the inner schema, which may be used unwrapped elsewhere.
  json.properties = { ...json.properties };
  for (const [name, property] of Object.entries<Json>(json.properties)) {
    const field = LENIENCY[property.type];
    if (field && becomes({ [name]: field.sample }, (result) => Object.is((result as Json | undefined)?.[name], field.becomes))) {
      json.properties[name] = { ...property };
      widen(json.properties[name], field.also);
    }
  }
}

/** A route's zod schema as JSON Schema (2020-12, the dialect of OpenAPI 3.1). */
function toJsonSchema(schema: z.ZodType, io: "input" | "output", multipart = false): Json {
  const { $schema: _, ...json } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    // z.custom (the file part) and anything else without a JSON Schema: the file as binary, the rest as "any value".
    unrepresentable: ({ zodSchema }) => (multipart && zodSchema._zod.def.type === "custom" ? FILE : "any"),
    override: ({ zodSchema, jsonSchema }) => documentPreprocess(zodSchema, jsonSchema as Json),
  });
  flattenAnyOf(json);
  // A schema with an id (`.meta({ id })`) would land in $defs, which a schema embedded in the document cannot point to.
  if (json.$defs) throw new Error("The OpenAPI document inlines every schema: remove the `id` metadata from the route schemas");
  return json;
}

/** `anyOf: [{ anyOf: [a, b] }, null]` (a widened field made nullable) reads better, and means the same, as `anyOf: [a, b, null]`. */
function flattenAnyOf(json: unknown): void {
  if (typeof json !== "object" || json === null) return;
  for (const value of Object.values(json)) flattenAnyOf(value);
  const node = json as Json;
  if (!Array.isArray(node.anyOf)) return;
  node.anyOf = node.anyOf.flatMap((member: Json) =>
    Object.keys(member).length === 1 && Array.isArray(member.anyOf) ? member.anyOf : [member],
  );
}

/** The input's fields, with each alternate spelling as a field of its own and the ignored ones as "anything". */
function inputSchema(route: LegacyRoute): Json {
  const { required: fieldsRequired, ...json } = toJsonSchema(route.input, "input", route.multipart);
  const properties: Json = { ...json.properties };
  let required: string[] = fieldsRequired ?? [];
  const oneRequired: Json[] = [];
  for (const [name, spellings] of Object.entries(groupSpellings(route))) {
    for (const spelling of spellings) {
      properties[spelling] = {
        ...properties[name],
        description: `Alternate spelling of \`${name}\`; \`${name}\` wins when both are sent.`,
      };
    }
    // A required field is there when any of its spellings is.
    if (required.includes(name)) {
      required = required.filter((field) => field !== name);
      oneRequired.push({ anyOf: [name, ...spellings].map((field) => ({ required: [field] })) });
      properties[name] = {
        ...properties[name],
        description: `Required, under this name or as ${spellings.map((s) => `\`${s}\``).join(" or ")}.`,
      };
    }
  }
  for (const name of route.ignored ?? [])
    properties[name] = { description: "Accepted and ignored: apps send it, this call does not use it." };
  return {
    ...json,
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(oneRequired.length > 0 ? { allOf: oneRequired } : {}),
  };
}

/** input name → the app spellings of it. */
function groupSpellings(route: LegacyRoute): Record<string, string[]> {
  const groups: Record<string, string[]> = {};
  for (const [spelling, name] of Object.entries(route.spellings ?? {})) {
    groups[name] ??= [];
    groups[name].push(spelling);
  }
  return groups;
}

/** GET calls read the query string: one parameter per field. */
function queryParameters(input: Json): Json[] {
  return Object.entries(input.properties as Json).map(([name, { description, ...schema }]) => ({
    name,
    in: "query",
    required: (input.required ?? []).includes(name),
    ...(description ? { description } : {}),
    schema,
  }));
}

/** `{ success: true, message?, ...output }`. */
function successSchema(route: LegacyRoute): Json {
  const output = toJsonSchema(route.output, "output");
  // Merged rather than allOf'd: zod closes its output objects (additionalProperties: false), which would refuse `success`.
  return {
    ...output,
    properties: { success: { const: true }, message: { type: "string" }, ...output.properties },
    required: ["success", ...(output.required ?? [])],
  };
}

/**
 * Every failure status a legacy call can get: the domain errors' statuses, the shim's own 404,
 * 405, 413 and 500, a reused Idempotency-Key's 422, Node's 431 for a URL or headers it will not
 * read, and 503 when the service is too busy or its database cannot serve.
 */
const ERROR_STATUSES = [...new Set([...Object.values(LEGACY_STATUS), 404, 405, 413, 422, 431, 500, 503])]
  .filter((status) => status !== 200)
  .sort((a, b) => a - b);

const FAILURE_MEANING: Record<number, string> = {
  400: "Invalid input: a field is missing, of the wrong type or breaks a rule (the message names it).",
  401: "No valid session: no token where one is needed (`LEGACY_AUTH=token`), or a token that is invalid or expired.",
  403: "The caller may not do this, or the account is disabled.",
  404: "No such route, or the record the call names does not exist.",
  405: "The route exists but not with this method; `Allow` lists the methods it takes.",
  409:
    "The call conflicts with the current state (a duplicate e-mail, a trip already taken), " +
    "or the first request with its Idempotency-Key is still running.",
  413: "The body is over the size limit.",
  422: "The Idempotency-Key was used for a different request (another body, method or path).",
  429: "Too many attempts; `Retry-After` says how many seconds to wait.",
  431: "The URL (query string included) or the headers are over 16 KB; nothing was read.",
  500: "Internal error, or the maps provider is unavailable.",
  503: "The service is too busy, or its database cannot serve, for now; the call may be retried after `Retry-After` seconds (with the same `Idempotency-Key`).",
};

const FAILURE_HEADERS: Record<number, Json> = {
  405: { Allow: { description: "The methods the route takes.", schema: { type: "string" } } },
  429: { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" } } },
  503: { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" } } },
};

const IDEMPOTENCY_KEY: Json = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Makes a retry safe: for 24 h, the same key with the same request answers the first answer without doing the work again " +
    "(marked `Idempotent-Replayed: true`); with another request, 422. Use a new random key (a UUID) per action.",
  schema: { type: "string", minLength: 1, maxLength: 255 },
};

function description(route: LegacyRoute, path: string): string {
  const lines: string[] = [];
  if (path !== route.path) lines.push(`Alias of \`${route.method} ${route.path}\`: the same call, at the path some deployed apps use.`);
  if (route.public) lines.push("Public: anyone may call it, with or without a session, in every `LEGACY_AUTH` mode.");
  else if (route.caller) {
    lines.push(
      `\`${route.caller}\` names the caller. With \`LEGACY_AUTH=ids\` the caller is whoever that id is; with \`LEGACY_AUTH=token\` ` +
        "the call needs `Authorization: Bearer <token>` (from `/auth/login.php`) and the id must be the token's user " +
        "(an administrator's token may name anyone).",
    );
  } else
    lines.push("Names no caller: with `LEGACY_AUTH=token` the call needs `Authorization: Bearer <token>` and acts for the token's user.");
  if (route.multipart) lines.push("The body is `multipart/form-data` with the file as a part.");
  if (route.requireJsonContentType) lines.push("The request must carry `Content-Type: application/json`.");
  return lines.join("\n\n");
}

/**
 * `POST /auth/check_user.php` → `postAuthCheckUser`: unique as method and path are, and camelCase
 * because Swagger UI's deep links read `_` as a space.
 */
const operationId = (method: string, path: string) =>
  [
    method.toLowerCase(),
    ...path
      .replace(/\.php$/, "")
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map((word) => word[0]!.toUpperCase() + word.slice(1)),
  ].join("");

function operation(route: LegacyRoute, path: string): Json {
  const input = inputSchema(route);
  const hasRequired = (input.required?.length ?? 0) > 0 || input.allOf !== undefined;
  const body =
    route.method === "GET"
      ? { parameters: queryParameters(input) }
      : {
          parameters: route.method === "POST" ? [IDEMPOTENCY_KEY] : [],
          requestBody: {
            required: hasRequired,
            content: { [route.multipart ? "multipart/form-data" : "application/json"]: { schema: input } },
          },
        };
  const failures = Object.fromEntries(
    ERROR_STATUSES.map((status) => [String(status), { $ref: `#/components/responses/Failure${status}` }]),
  );
  return {
    operationId: operationId(route.method, path),
    summary: route.summary,
    description: description(route, path),
    tags: [route.path.split("/")[1] ?? "legacy"],
    ...(route.public ? { security: [] } : { security: [{}, { bearer: [] }] }),
    ...body,
    responses: {
      200: {
        description:
          "The call's answer. A refusal the legacy apps expect as a business outcome (no drivers available for a new trip) " +
          "also arrives as 200, with `success: false`.",
        content: { "application/json": { schema: { oneOf: [successSchema(route), ref("LegacyFailure")] } } },
      },
      ...failures,
    },
  };
}

/** The OpenAPI 3.1 document of the legacy `.php` interface, generated from its route table. */
export function openApiDocument(routes: LegacyRoute[]): Json {
  const paths: Json = {};
  for (const route of routes) {
    for (const path of [route.path, ...(route.aliases ?? [])]) {
      paths[path] ??= {};
      paths[path][route.method.toLowerCase()] = operation(route, path);
    }
  }
  const failure = (status: number) => ({
    description: FAILURE_MEANING[status] ?? "The call was refused.",
    ...(FAILURE_HEADERS[status] ? { headers: FAILURE_HEADERS[status] } : {}),
    content: { "application/json": { schema: ref("LegacyFailure") } },
  });
  return {
    openapi: "3.1.0",
    info: {
      title: "Ride-hailing legacy API",
      version: PACKAGE_VERSION,
      description:
        "The `.php` interface the deployed mobile apps call. Every answer is JSON: `{ success: true, ... }` with HTTP 200, " +
        "or `{ success: false, message }` with the status of the failure. GET calls read the query string; the others a JSON body. " +
        'Numeric fields also accept their value as text (`"12"`).',
    },
    servers: [{ url: "/" }],
    paths,
    components: {
      schemas: {
        LegacyFailure: {
          type: "object",
          properties: { success: { const: false }, message: { type: "string" } },
          required: ["success", "message"],
          additionalProperties: false,
        },
      },
      responses: Object.fromEntries(ERROR_STATUSES.map((status) => [`Failure${status}`, failure(status)])),
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "A token from `/auth/login.php` (needed with `LEGACY_AUTH=token`)." },
      },
    },
  };
}
