import { z } from "zod";
import { integer, missingOr, number, positiveId } from "../domain/validation.js";

/**
 * How legacy inputs arrive: query-string values are always text and older clients send numbers
 * as text in JSON too, so numeric fields accept "12" as well as 12. Everything else about a
 * value (ranges, formats, rules) is checked by the domain.
 */
const numericText = (value: unknown) =>
  typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)) ? Number(value) : value;

export const legacyId = () => z.preprocess(numericText, positiveId());
export const legacyInt = () => z.preprocess(numericText, integer());
export const legacyNumber = () => z.preprocess(numericText, number());

export const legacyText = () =>
  z.preprocess(
    (value) => (typeof value === "number" ? String(value) : value),
    z.string({ error: missingOr("debe ser un texto") }),
  );

const FLAGS: Record<string, boolean> = { "1": true, "0": false, true: true, false: false };
/** The legacy 1/0 switches. */
export const legacyFlag = () =>
  z.preprocess(
    (value) => (typeof value === "boolean" ? value : FLAGS[String(value)] ?? value),
    z.boolean({ error: missingOr("debe ser 1 o 0") }),
  );

/** A file part of a multipart form. */
export const legacyFile = () =>
  z.custom<Blob>((value) => value instanceof Blob, {
    error: (issue) => (issue.input == null ? "es obligatorio" : "debe ser un archivo"),
  });
