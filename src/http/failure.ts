import { Response } from "./response.js";

// Each answer gets headers of its own: Response.json writes content-length into a plain object it
// is handed, which would carry one answer's length into the next that shares the object.

/** The `{ success: false, message }` answer the legacy interface and the document photos share. */
export const failure = (status: number, message: string, headers?: Record<string, string>) =>
  Response.json({ success: false, message }, { status, headers: { ...headers } });

/** The same refusal, as GraphQL over HTTP words it, for what is refused before any operation runs. */
export const graphqlFailure = (status: number, message: string, code: string, headers?: Record<string, string>) =>
  Response.json({ errors: [{ message, extensions: { code } }] }, { status, headers: { ...headers } });
