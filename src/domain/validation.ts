import { z } from "zod";
import { ValidationError } from "./errors.js";
import { parseInstant } from "./time.js";

// Spanish wording for anything a schema below does not word itself.
z.config(z.locales.es());

/** Parses `input`; the first problem found becomes a ValidationError naming its field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.map(String).join(".") || null;
  throw new ValidationError(issue.message, field);
}

/** The changes an update asks for; one that sends none of its fields is refused, never answered as done. */
export function parseChanges<S extends z.ZodObject>(schema: S, input: unknown): z.output<S> {
  const changes = parseInput(schema, input) as Record<string, unknown>;
  if (Object.values(changes).every((value) => value === undefined)) {
    throw new ValidationError(`No se envió ningún dato para cambiar; los campos son: ${Object.keys(schema.shape).join(", ")}`);
  }
  return changes as z.output<S>;
}

/** The parser of one named input, so that its errors name it; built once, where it is declared. */
export function fieldParser<S extends z.ZodType>(name: string, schema: S): (value: unknown) => z.output<S> {
  const object = z.object({ [name]: schema });
  return (value) => parseInput(object, { [name]: value })[name] as z.output<S>;
}

/** Refuses a call that sends both or neither of two ways of naming what it is about (`{ userId, email }`). */
export function exactlyOne(fields: Record<string, unknown>): void {
  if (Object.values(fields).filter((value) => value !== undefined).length === 1) return;
  const names = Object.keys(fields).map((name) => `'${name}'`);
  throw new ValidationError(`Envía exactamente uno de los campos ${names.join(" o ")}`);
}

const isAbsent = (value: unknown) => value === undefined || value === null;
/** "es obligatorio" when the value is missing, `wrongType` when it is there but of another type. */
export const missingOr = (wrongType: string) => (issue: { input: unknown }) => (isAbsent(issue.input) ? "es obligatorio" : wrongType);

/** Optional input: null and undefined both mean "not sent". */
export const optional = <S extends z.ZodType>(schema: S) =>
  schema.nullish().transform((value): z.output<S> | undefined => value ?? undefined);

// A NUL character is never meant, and PostgreSQL refuses to store it.
const NO_NUL = [(value: string) => !value.includes("\u0000"), "contiene caracteres no permitidos"] as const;

export const text = (max = 200) =>
  z
    .string({ error: missingOr("debe ser un texto") })
    .trim()
    .min(1, "no puede estar vacío")
    .max(max, `admite como máximo ${max} caracteres`)
    .refine(...NO_NUL);

export const email = () =>
  z
    .string({ error: missingOr("debe ser un texto") })
    .trim()
    .toLowerCase()
    .min(1, "no puede estar vacío")
    .max(254, "admite como máximo 254 caracteres")
    .refine(...NO_NUL)
    .pipe(z.email({ error: "no es un correo electrónico válido" }));

export const phone = () =>
  text(25).refine(
    (value) => /^\+?[\d\s().-]+$/.test(value) && /^\d{7,15}$/.test(value.replace(/\D/g, "")),
    "no es un teléfono válido (7 a 15 dígitos)",
  );

/** A Colombian mobile number: 10 digits that start with 3. */
export const MOBILE = /^3\d{9}$/;

/** A Colombian mobile number, written with or without +57, spaces or dashes; kept as its 10 digits. */
export const colombianMobile = () =>
  text(25)
    .transform((value) => value.replace(/[\s().-]/g, "").replace(/^\+?57(?=3\d{9}$)/, ""))
    .refine((value) => MOBILE.test(value), "debe ser un celular colombiano de 10 dígitos que empiece por 3");

export const number = (wrongType = "debe ser un número") => z.number({ error: missingOr(wrongType) });

/** The range of a GraphQL Int and of the databases' INTEGER columns. */
const INT_MAX = 2_147_483_647;

export const integer = () =>
  number("debe ser un número entero")
    .int("debe ser un número entero")
    .min(-INT_MAX - 1, "está fuera del rango permitido")
    .max(INT_MAX, "está fuera del rango permitido");

export const positiveId = () => integer().positive("debe ser un identificador positivo");

export const latitude = () => number().min(-90, "debe estar entre -90 y 90").max(90, "debe estar entre -90 y 90");

export const longitude = () => number().min(-180, "debe estar entre -180 y 180").max(180, "debe estar entre -180 y 180");

export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: missingOr(`debe ser uno de: ${values.join(", ")}`) });

/** What a domain operation accepts before parsing: the right keys, values not yet trusted. */
export type Raw<S extends z.ZodType> = { [K in keyof z.input<S>]?: unknown };

/** An ISO 8601 date ("2027-05-01") or timestamp, with or without a zone (see parseInstant). */
export const isoDate = (options: { endOfDay?: boolean } = {}) =>
  z
    .string({ error: missingOr("debe ser una fecha ISO 8601 (AAAA-MM-DD)") })
    .trim()
    .transform((value, ctx) => {
      const date = parseInstant(value, options);
      if (!date) {
        ctx.addIssue({ code: "custom", message: "debe ser una fecha ISO 8601 válida (AAAA-MM-DD)" });
        return z.NEVER;
      }
      return date;
    });
