import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./unavailable";

const wrapped = (cause: Error) => new Error("Failed query: select 1", { cause });
const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it("knows the pool's and the driver's words for a database that did not answer, beneath Drizzle's error", () => {
    for (const cause of [
      new Error("timeout exceeded when trying to connect"),
      new Error("Query read timeout"),
      new Error("Connection terminated unexpectedly"),
      withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"),
      withCode("canceling statement due to statement timeout", "57014"),
      withCode("terminating connection due to administrator command", "57P01"),
      withCode("the database system is starting up", "57P03"),
      withCode("connection failure", "08006"),
    ]) {
      expect(isDatabaseUnavailable(wrapped(cause)), cause.message).toBe(true);
    }
  });

  it("leaves a statement the database refused, and errors of our own, to be internal", () => {
    expect(isDatabaseUnavailable(wrapped(withCode('relation "boxes" does not exist', "42P01")))).toBe(false);
    expect(isDatabaseUnavailable(wrapped(withCode("duplicate key value violates unique constraint", "23505")))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isDatabaseUnavailable("a string")).toBe(false);
  });
});
