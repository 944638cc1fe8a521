import { expect } from "vitest";
import type { LegacyResponse, TestApp } from "../support/app.js";

/**
 * Requests as pingo's Dart code encodes them with package:http: jsonEncode writes a Dart double
 * with its fraction even when it is whole (5.0, 13200.0) and an int without one; a String body
 * gets `content-type: application/json; charset=utf-8`; query strings are built by interpolating
 * values into the URL, where a double reads 1.0 and a String goes through Uri.encodeComponent.
 */

/** A Dart double, which jsonEncode and string interpolation write with a fraction. */
class DartDouble {
  constructor(readonly value: number) {}
  toString() {
    return Number.isInteger(this.value) ? this.value.toFixed(1) : String(this.value);
  }
}

export const double = (value: number) => new DartDouble(value);

type DartValue = DartDouble | number | string | boolean | null | DartValue[] | { [key: string]: DartValue };

/** jsonEncode of a Map<String, dynamic>. */
function jsonEncode(value: DartValue): string {
  if (value instanceof DartDouble) return value.toString();
  if (Array.isArray(value)) return `[${value.map(jsonEncode).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value)
      .map(([key, inner]) => `${JSON.stringify(key)}:${jsonEncode(inner)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

const DART_JSON = { "content-type": "application/json; charset=utf-8" };
export const ACCEPT = { accept: "application/json" };

/** http.post(url, headers: {'Content-Type': 'application/json', ...}, body: jsonEncode(body)). */
export const dartPost = (app: TestApp, path: string, body: Record<string, DartValue>, headers: Record<string, string> = {}) =>
  app.legacy("POST", path, jsonEncode(body), { ...DART_JSON, ...headers });

/** http.get(Uri.parse('$base$path?a=$a&b=$b'), headers: ...): each value as Dart interpolates it. */
export const dartGet = (
  app: TestApp,
  path: string,
  query: Record<string, DartDouble | number | string>,
  headers: Record<string, string> = ACCEPT,
) =>
  app.legacy(
    "GET",
    `${path}?${Object.entries(query)
      .map(([key, value]) => `${key}=${typeof value === "string" ? encodeURIComponent(value) : String(value)}`)
      .join("&")}`,
    undefined,
    headers,
  );

/** What every one of the app's callers checks first: status 200 and `success == true`. */
export function ok(response: LegacyResponse) {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.success, JSON.stringify(response.body)).toBe(true);
  return response.body;
}
