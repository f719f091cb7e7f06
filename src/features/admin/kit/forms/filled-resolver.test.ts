import type { ResolverOptions } from "react-hook-form";
import { describe, expect, it, vi } from "vitest";
import { productFormInput, requiredProductFields, templateFormInput, type ProductFormInput } from "@/server/catalog/admin-schemas";
import { filledThenSchema, firstError } from "./filled-resolver";

vi.mock("@/components/toast", () => ({ toast: { error: vi.fn(), success: vi.fn(), warning: vi.fn() } }));

type Values = Omit<ProductFormInput, "countryId"> & { countryId: number };
const toInput = (values: Values): ProductFormInput => ({ ...values, countryId: Number.isNaN(values.countryId) ? null : values.countryId });

const filled: Values = {
  name: "Omega crown", price: "49.95", shippingFee: "", isBulk: false, categoryId: 3, manufacturerId: 7, countryId: Number.NaN,
  caliber: "UNKNOWN", state: "NEW", itemType: "UNKNOWN", gender: "UNKNOWN", wsStatus: "ONLINE", ebayStatus: "OFFLINE", condition: "New old stock",
};
const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<Values>;
const resolve = filledThenSchema(productFormInput, requiredProductFields, toInput);

describe("the staff product form's resolver (SPEC section 5)", () => {
  it("marks every required field that is not filled, in the form's order, before asking the schema", async () => {
    const result = await resolve({ ...filled, name: "  ", categoryId: Number.NaN, condition: "" }, undefined, options);
    expect(Object.keys(result.errors)).toEqual(["name", "categoryId", "condition"]);
    expect(Object.values(result.errors).map((error) => error?.type)).toEqual(["required", "required", "required"]);
  });

  it("refuses a filled form the server's schema refuses", async () => {
    const result = await resolve({ ...filled, price: "forty" }, undefined, options);
    expect(Object.keys(result.errors)).toEqual(["price"]);
    expect(result.errors.price?.type).not.toBe("required");
    expect(result.errors.price?.message).toBe("must be an amount in euros, like 49.95");
  });

  it("submits the input exactly as the server receives it", async () => {
    const result = await resolve(filled, undefined, options);
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({ ...filled, countryId: null });
  });

  it("asks a template for its name only", async () => {
    const resolveTemplate = filledThenSchema(templateFormInput, ["templateName"], (values: { templateName: string; name: string }) => values);
    const templateOptions = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<{ templateName: string; name: string }>;
    expect(Object.keys((await resolveTemplate({ templateName: "", name: "" }, undefined, templateOptions)).errors)).toEqual(["templateName"]);
    expect((await resolveTemplate({ templateName: "Crowns", name: "" }, undefined, templateOptions)).values).toEqual({ templateName: "Crowns", name: "" });
  });
});

describe("the first refusal of a form", () => {
  it("is found wherever it sits, with its field's path", () => {
    expect(firstError({ name: { type: "required", message: "Required" } })).toEqual({ path: "name", message: "Required" });
    expect(firstError({ bands: [undefined, { maxPrice: { type: "custom", message: "must be more than the minimum" } }] } as never)).toEqual({
      path: "bands.1.maxPrice",
      message: "must be more than the minimum",
    });
    expect(firstError({})).toBeNull();
  });
});

