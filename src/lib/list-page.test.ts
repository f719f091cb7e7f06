import { describe, expect, it } from "vitest";
import { listPageFromAddress, listPageInput } from "./list-page";

describe("a back-office list's page", () => {
  it("reads the page and its size from the address, and anything else as page one of 50", () => {
    expect(listPageFromAddress(new URLSearchParams("page=3&size=100"))).toEqual({ page: 3, pageSize: 100 });
    expect(listPageFromAddress(new URLSearchParams(""))).toEqual({ page: 1, pageSize: 50 });
    expect(listPageFromAddress(new URLSearchParams("page=-2&size=30"))).toEqual({ page: 1, pageSize: 50 });
    expect(listPageFromAddress(new URLSearchParams("page=1.5&size=abc"))).toEqual({ page: 1, pageSize: 50 });
    expect(listPageFromAddress(new URLSearchParams("page=999999999"))).toEqual({ page: 100_000, pageSize: 50 });
  });

  it("takes only the sizes the pager offers, and no page past the last", () => {
    expect(listPageInput.parse({})).toEqual({ page: 1, pageSize: 50 });
    expect(listPageInput.parse({ page: 2, pageSize: 25 })).toEqual({ page: 2, pageSize: 25 });
    expect(listPageInput.safeParse({ pageSize: 30 }).success).toBe(false);
    expect(listPageInput.safeParse({ page: 100_001 }).success).toBe(false);
    expect(listPageInput.safeParse({ page: 0 }).success).toBe(false);
  });
});
