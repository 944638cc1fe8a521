import { Response } from "./response.js";

/**
 * An answer made outside Yoga, as plain data: sent as it is on Node's response (sendAnswer), or
 * handed to Yoga as a Response. Header names are lower case.
 */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** `value` as JSON, with `headers` of the answer's own. */
export const jsonAnswer = (status: number, value: unknown, headers?: Record<string, string>): Answer => ({
  status,
  headers: { "content-type": "application/json; charset=utf-8", ...headers },
  body: JSON.stringify(value),
});

export const asResponse = ({ status, headers, body }: Answer): Response => new Response(body, { status, headers });
