import { describe, expect, it } from "vitest";
import { AppError } from "@/server/errors";
import { foundOrNull } from "./found-or-null";

describe("foundOrNull", () => {
  it("passes on what the read finds", async () => {
    expect(await foundOrNull(Promise.resolve({ id: 7 }))).toEqual({ id: 7 });
  });

  it("turns the service's NOT_FOUND into null, for the page's 404", async () => {
    expect(await foundOrNull(Promise.reject(new AppError("NOT_FOUND", "No such order.")))).toBeNull();
  });

  it("lets every other error through", async () => {
    await expect(foundOrNull(Promise.reject(new AppError("FORBIDDEN", "Not yours.")))).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(foundOrNull(Promise.reject(new Error("database down")))).rejects.toThrow("database down");
  });
});
