import { describe, expect, it } from "vitest";
import type { FieldErrors } from "react-hook-form";
import { errorAt, serverFieldIssues } from "./field-refusals";

describe("a server's field refusals, as a form reads them", () => {
  it("takes the paths and messages of a BAD_REQUEST's fieldIssues, and nothing from any other error", () => {
    const refused = Object.assign(new Error("The request is not valid"), {
      data: { code: "BAD_REQUEST", fieldIssues: [{ path: "quantity", message: "At least one piece" }, { path: 3, message: "no path" }, { path: "unitCost", message: "Enter an amount like 12.50" }] },
    });
    expect(serverFieldIssues(refused)).toEqual([
      { path: "quantity", message: "At least one piece" },
      { path: "unitCost", message: "Enter an amount like 12.50" },
    ]);
    expect(serverFieldIssues(Object.assign(new Error("Box 3 is SHIPPED"), { data: { code: "PRECONDITION_FAILED", fieldIssues: null } }))).toEqual([]);
    expect(serverFieldIssues(null)).toEqual([]);
  });

  it("finds a refusal by its dotted path, nested or not", () => {
    const errors = { price: { type: "custom", message: "Enter a price above zero" }, regions: [undefined, { maxPrice: { type: "server", message: "Too high" } }] } as unknown as FieldErrors;
    expect(errorAt(errors, "price")).toBe("Enter a price above zero");
    expect(errorAt(errors, "regions.1.maxPrice")).toBe("Too high");
    expect(errorAt(errors, "name")).toBeUndefined();
  });
});
