import { z } from "zod";
import { placeSchema } from "../domain/maps/place.js";
import { integer, missingOr, number, oneOf, positiveId, text } from "../domain/validation.js";

/**
 * How legacy inputs arrive: query-string values are always text and older clients send numbers
 * as text in JSON too, so numeric fields accept "12" as well as 12. Everything else about a
 * value (ranges, formats, rules) is checked by the domain.
 */
const numericText = (value: unknown) =>
  typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)) ? Number(value) : value;

export const legacyId = () => z.preprocess(numericText, positiveId());
/** A reference a call may also take away: an id, or 0 for none (null, as in every legacy call, is "not sent"). */
export const legacyIdOrNone = () => z.preprocess(numericText, integer().min(0, "debe ser un identificador positivo, o 0 para ninguno"));
export const legacyInt = () => z.preprocess(numericText, integer());
export const legacyNumber = () => z.preprocess(numericText, number());

const asText = (value: unknown) => (typeof value === "number" ? String(value) : value);
export const legacyText = () => z.preprocess(asText, z.string({ error: missingOr("debe ser un texto") }));

const FLAGS: Record<string, boolean> = { "1": true, "0": false, true: true, false: false };
/** The legacy 1/0 switches. */
export const legacyFlag = () =>
  z.preprocess(
    (value) => (typeof value === "boolean" ? value : (FLAGS[String(value)] ?? value)),
    z.boolean({ error: missingOr("debe ser 1 o 0") }),
  );

/** A file part of a multipart form. */
export const legacyFile = () =>
  z.custom<Blob>((value) => value instanceof Blob, {
    error: (issue) => (issue.input == null ? "es obligatorio" : "debe ser un archivo"),
  });

/**
 * One of `values`, checked here with the domain's own wording: the GraphQL variable it fills is an
 * enum, which would refuse any other value before the domain could say why. Some apps spell values
 * their own way: `spellings` maps each to the value meant.
 */
export const legacyChoice = <const T extends readonly [string, ...string[]]>(values: T, spellings: Record<string, string> = {}) =>
  z.preprocess(
    (value) => {
      const text = asText(value);
      return typeof text === "string" ? (spellings[text.trim().toLowerCase()] ?? text) : text;
    },
    z.string({ error: missingOr("debe ser un texto") }).pipe(oneOf(values)),
  );

/** A copy of `record` that also carries each value under the other spellings apps read (app spelling → own name). */
export const withSpellings = (record: Record<string, unknown> | null, spellings: Record<string, string>) =>
  record && { ...record, ...Object.fromEntries(Object.entries(spellings).map(([app, own]) => [app, record[own]])) };

/** How the deployed apps name user types, vehicle types and document photos. */
export const USER_TYPE_SPELLINGS = { cliente: "pasajero", administrador: "admin" };
export const VEHICLE_TYPE_SPELLINGS = { motocicleta: "moto", carro: "auto" };
export const DOCUMENT_TYPE_SPELLINGS = { licencia: "licencia_frente" };

/** A place (docs/legacy-api.md) as legacy bodies send it: the domain's own schema, with coordinates also as text. */
export const legacyPlace = ({ addressRequired = false } = {}) =>
  z.preprocess(
    (value) =>
      typeof value === "object" && value !== null
        ? {
            ...value,
            latitud: numericText((value as Record<string, unknown>).latitud),
            longitud: numericText((value as Record<string, unknown>).longitud),
          }
        : value,
    addressRequired ? placeSchema().extend({ direccion: text(300) }) : placeSchema(),
  );
