import { describe, expect, it } from "vitest";
import type { EditableManualOrder } from "@/server/orders/manual-order-schemas";
import { createInputOf, markPaidMethodOf, quoteInputOf, requiredForBoth, requiredToCreate, updateInputOf, valuesOf, type ManualOrderFormValues } from "./manual-order-values";

const filled: ManualOrderFormValues = {
  ...valuesOf(undefined),
  firstName: "Clara", lastName: "Janssen", companyName: "", street: "Keizersgracht", houseNumber: "12", addressLine2: "", postCode: "1015 CJ", city: "Amsterdam",
  countryCode: "NL", stateCode: "", phoneNumber: "+31 6 12345678", email: "clara@example.com",
  lines: [{ productId: 7, name: "Balance staff", quantity: 2, priceOverride: "", priceOverrideReason: "", soldReason: null }],
  paymentMethod: "ACCOUNT", paid: false,
};

const address = {
  firstName: "Clara", lastName: "Janssen", companyName: "", street: "Keizersgracht", houseNumber: "12", addressLine2: "", postCode: "1015 CJ", city: "Amsterdam",
  countryCode: "NL", stateCode: "", phoneNumber: "+31 6 12345678",
};

describe("the manual order form's values", () => {
  it("start empty, in the Netherlands, tracked and paid", () => {
    expect(valuesOf(undefined)).toEqual({
      firstName: "", lastName: "", companyName: "", street: "", houseNumber: "", addressLine2: "", postCode: "", city: "", countryCode: "NL", stateCode: "", phoneNumber: "",
      email: "", lines: [], shippingMethod: "TNT", waiveShipping: false, shipOn: "", paymentMethod: "", paid: true,
    });
  });

  it("ask for the address's required fields and the order's before the schema", () => {
    expect(requiredForBoth).toEqual(["firstName", "lastName", "street", "houseNumber", "postCode", "city", "countryCode", "email", "lines", "shippingMethod"]);
    expect(requiredToCreate).toEqual([...requiredForBoth, "paymentMethod"]);
  });

  it("send the address nested, the lines without their names, and the payment only when creating", () => {
    const line = { productId: 7, quantity: 2, priceOverride: "", priceOverrideReason: "" };
    const shipping = { shippingMethod: "TNT", waiveShipping: false, shipOn: "" };
    expect(createInputOf("user-1")(filled)).toEqual({ userId: "user-1", address, email: "clara@example.com", lines: [line], ...shipping, paymentMethod: "ACCOUNT", paid: false });
    expect(updateInputOf("BC-2026-000123")(filled)).toEqual({ orderNumber: "BC-2026-000123", address, email: "clara@example.com", lines: [line], ...shipping });
    expect(quoteInputOf(filled, undefined)).toMatchObject({ lines: [{ productId: 7, quantity: 2 }], countryCode: "NL", stateCode: undefined });
  });
});

describe("mark paid", () => {
  const order = (paymentMethod: EditableManualOrder["paymentMethod"]) => ({ paymentMethod }) as EditableManualOrder;

  it("offers the method the order was taken with, so marking it paid keeps it", () => {
    expect(markPaidMethodOf(order("ACCOUNT"))).toBe("ACCOUNT");
    expect(markPaidMethodOf(order("BANKTRANSFER"))).toBe("BANKTRANSFER");
  });

  it("offers bank transfer for an order taken another way", () => {
    expect(markPaidMethodOf(order("IDEAL"))).toBe("BANKTRANSFER");
  });
});
