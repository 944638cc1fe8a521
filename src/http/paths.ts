/** Where GraphQL answers over HTTP, SSE and WebSocket. */
export const GRAPHQL_PATH = "/graphql";
/**
 * The graphql-sse protocol, for its single-connection mode (one stream carrying every operation of
 * a client); its distinct-connections mode works here and, as Yoga's own SSE, on GRAPHQL_PATH.
 */
export const GRAPHQL_SSE_PATH = "/graphql/stream";
