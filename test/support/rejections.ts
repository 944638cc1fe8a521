import { afterAll, beforeAll } from "vitest";

/**
 * Collects the unhandled promise rejections of the file's tests, which must stay none: a failing
 * Redis, database or mail server never leaves one behind.
 */
export function watchRejections(): unknown[] {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  beforeAll(() => {
    process.on("unhandledRejection", onRejection);
  });
  afterAll(() => {
    process.off("unhandledRejection", onRejection);
  });
  return rejections;
}
