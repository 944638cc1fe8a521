/** The `{ success: false, message }` answer the legacy interface and the document photos share. */
export const failure = (status: number, message: string, headers?: Record<string, string>) =>
  Response.json({ success: false, message }, { status, headers });
