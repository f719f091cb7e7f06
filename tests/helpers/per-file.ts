import { afterAll, beforeAll } from "vitest";

/**
 * Something the tests of one file share (its database, a provider's stand-in, the shop's webhook endpoint): opened
 * before the file's first test and closed after its last. The answer stands for the opened thing, so a file declares
 * it in one line at the top instead of a `let` and two hooks; reading it before `beforeAll` has run is an error.
 */
export function perFile<T extends object>(open: () => Promise<T>, close: (opened: T) => Promise<void>): T {
  let opened: T | undefined;
  beforeAll(async () => {
    opened = await open();
  });
  afterAll(async () => {
    if (opened) await close(opened);
  });
  return new Proxy({} as T, {
    get(_target, key) {
      if (!opened) throw new Error("A per-file fixture opens in beforeAll: read it inside a test or a hook.");
      const value: unknown = Reflect.get(opened, key);
      return typeof value === "function" ? value.bind(opened) : value;
    },
  });
}
