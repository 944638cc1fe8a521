import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { openApiDocument } from "../../src/rest/openapi.js";
import { legacyRoutes } from "../../src/rest/routes/index.js";

/** The OpenAPI document of the legacy interface, as /openapi.json serves it. */
export const DOCUMENT: Record<string, any> = JSON.parse(JSON.stringify(openApiDocument(legacyRoutes)));

// Strict: a schema keyword the generator misspells, or a format it invents, fails compilation. Not
// strictRequired: "one of these spellings is required" is `anyOf: [{ required: [a] }, { required: [b] }]`.
const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
addFormats.default(ajv);
ajv.addFormat("binary", true);

/** ajv's errors, each with its details (the extra property's name, the allowed values). */
export const problems = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`).join("; ");

/** A schema of the document, made standalone: its `#/components/schemas/…` become `$defs` of its own. */
export function compile(schema: object, doc: Record<string, any> = DOCUMENT): ValidateFunction {
  const standalone = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"#/$defs/'));
  return ajv.compile({ ...standalone, $defs: doc.components.schemas });
}

/** The schema the document gives for what `method path` answers with `status`; undefined when it documents none. */
export function responseSchema(method: string, path: string, status: number, doc: Record<string, any> = DOCUMENT) {
  let response = doc.paths[path]?.[method.toLowerCase()]?.responses[String(status)];
  if (response?.$ref) response = doc.components.responses[response.$ref.replace("#/components/responses/", "")];
  return response?.content["application/json"].schema;
}

const compiled = new Map<string, ValidateFunction>();

/**
 * Why a legacy answer is not what the document says, or null when it is. Calls to paths or
 * methods the document does not have (a wrong path, a wrong method) are not its business.
 */
export function undocumented(method: string, path: string, status: number, body: unknown): string | null {
  const key = `${method} ${path} ${status}`;
  if (!compiled.has(key)) {
    const schema = DOCUMENT.paths[path]?.[method.toLowerCase()] && responseSchema(method, path, status);
    if (!schema) return DOCUMENT.paths[path]?.[method.toLowerCase()] ? `${key} is not documented` : null;
    compiled.set(key, compile(schema));
  }
  const validate = compiled.get(key)!;
  return validate(body) ? null : `${key} ${JSON.stringify(body)}: ${problems(validate.errors)}`;
}
