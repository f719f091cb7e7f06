import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { createCounterSaleInput, type EditableManualOrder, type ManualOrderQuote } from "@/server/orders/manual-order-schemas";
import { counterSaleInputOf, createInputOf, markPaidMethodOf, requiredForCounterSale, savedEditMessage, summaryRows, quoteInputOf, requiredForBoth, requiredToCreate, updateInputOf, valuesOf, type ManualOrderFormValues } from "./manual-order-values";

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
  // A phone order is not paid until staff say the money is in; a sale paid at the counter is a counter sale.
  it("start empty, in the Netherlands, tracked and unpaid", () => {
    expect(valuesOf(undefined)).toEqual({
      firstName: "", lastName: "", companyName: "", street: "", houseNumber: "", addressLine2: "", postCode: "", city: "", countryCode: "NL", stateCode: "", phoneNumber: "",
      email: "", lines: [], shippingMethod: "TNT", waiveShipping: false, shipOn: "", paymentMethod: "", paid: false,
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

describe("a counter sale on the form", () => {
  it("needs the buyer's name, the lines and how it was paid, and no address", () => {
    expect(requiredForCounterSale).toEqual(["firstName", "lastName", "lines", "paymentMethod"]);
    const values: ManualOrderFormValues = { ...valuesOf(undefined), firstName: "Clara", lastName: "Janssen", shippingMethod: "COLLECTED", paymentMethod: "ACCOUNT", lines: filled.lines };
    const parsed = createCounterSaleInput.parse(counterSaleInputOf(null)(values));
    expect(parsed).toMatchObject({ buyer: { firstName: "Clara", lastName: "Janssen", companyName: null, phoneNumber: null }, email: null, paymentMethod: "ACCOUNT" });
  });
});

const euro = (amount: string) => new Decimal(amount);
const saved = (more: { previousTotal: string; total: string; wasPaid: boolean }) => ({
  orderId: 1, orderNumber: "BC-2026-000123", status: "PENDING" as const, total: euro(more.total), previousTotal: euro(more.previousTotal), wasPaid: more.wasPaid,
});

describe("the message after an edit is saved", () => {
  it("tells staff an unpaid order's customer will simply pay less: no refund", () => {
    expect(savedEditMessage(saved({ previousTotal: "60.00", total: "50.00", wasPaid: false }))).toBe("BC-2026-000123: the customer will pay €10.00 less, €50.00 instead of €60.00.");
  });

  it("asks for a refund of what a paid order now costs less", () => {
    expect(savedEditMessage({ ...saved({ previousTotal: "60.00", total: "50.00", wasPaid: true }), status: "PAID_READY_TO_SHIP" })).toBe(
      "BC-2026-000123: total €50.00; the customer paid €60.00: refund the difference of €10.00 under Refunds on the order page.",
    );
  });
});

describe("the totals beside the form", () => {
  const quote = (more: Partial<ManualOrderQuote>): ManualOrderQuote => ({
    lines: [], shipping: null, status: "PENDING", previousTotal: null, problems: [], collected: false, aboveList: euro("0"),
    totals: { items: euro("0"), discount: euro("0"), shipping: euro("0"), surcharge: euro("0"), total: euro("0") },
    ...more,
  });

  it("show a price above the list price as a surcharge, never as a negative discount", () => {
    // A €100.00 piece sold for €184.05: the line is stored at its price with no discount.
    const rows = summaryRows(quote({ collected: true, aboveList: euro("84.05"), totals: { items: euro("184.05"), discount: euro("0"), shipping: euro("0"), surcharge: euro("0"), total: euro("184.05") } }));
    expect(rows.map((row) => `${row.label} ${row.amount}`)).toEqual(["Items at list price €100.00", "Above list price +€84.05", "Collected in the shop no shipping", "Total €184.05"]);
    expect(rows.some((row) => row.amount.includes("−-"))).toBe(false);
  });
});
