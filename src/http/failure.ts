/** The `{ success: false, message }` answer the legacy interface and the document photos share. */
export const failure = (status: number, message: string, headers?: Record<string, string>) =>
  Response.json({ success: false, message }, { status, headers });

/** The same refusal, as GraphQL over HTTP words it, for what is refused before any operation runs. */
export const graphqlFailure = (status: number, message: string, code: string, headers?: Record<string, string>) =>
  Response.json({ errors: [{ message, extensions: { code } }] }, { status, headers });
