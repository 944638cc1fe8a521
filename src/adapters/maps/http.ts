/** GET a JSON document, giving up after `timeoutMs`. Non-2xx answers are failures. */
export async function getJson(url: URL, timeoutMs: number): Promise<unknown> {
  const response = await fetch(url, {
    headers: { accept: "application/json", "user-agent": "ride-hailing-backend (maps)" },
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) throw new Error(`${url.origin} answered ${response.status}`);
  return response.json();
}
