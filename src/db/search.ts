import type { Provider } from "./url.js";

/**
 * A case-insensitive "contains" filter. PostgreSQL needs Prisma's insensitive mode; SQLite's
 * LIKE already ignores case (for ASCII) and has no such mode.
 */
export const containsIgnoringCase = (provider: Provider, text: string) =>
  (provider === "postgresql" ? { contains: text, mode: "insensitive" } : { contains: text }) as { contains: string };
