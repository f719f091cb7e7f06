import { Decimal } from "decimal.js";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { OrderView } from "@/server/orders/schemas";
import { OrderOverview } from "./order-overview";

const sold = new Date("2026-11-27T14:05:00Z");

function order(method: OrderView["shipping"]["method"]): OrderView {
  const zero = new Decimal(0);
  return {
    orderId: 1, orderNumber: "BC-2026-000001", status: "SHIPPED", createdAt: sold, shippedAt: sold, deliveredAt: sold, email: "buyer@example.com",
    items: [{ productId: 7, name: "Seiko 6309 movement", quantity: 1, paid: new Decimal("85.00"), discount: zero }],
    address: { name: "Ada Buyer", lines: method === "COLLECTED" ? [] : ["Keizersgracht 1", "1015 CJ Amsterdam", "Netherlands"] },
    shipping: { method, carrier: null, trackingNumber: null, trackingUrl: null, estimatedShippingDate: null, estimatedDeliveryDate: null },
    paymentMethod: "ACCOUNT",
    totals: { items: new Decimal("85.00"), discount: zero, shipping: zero, surcharge: zero, total: new Decimal("85.00") },
    refunds: [], refundedTotal: "0.00",
  };
}

describe("the customer's order overview", () => {
  it("shows a counter sale as bought and collected in the shop, with no shipping line and nothing shipped or delivered", () => {
    const html = renderToStaticMarkup(<OrderOverview order={order("COLLECTED")} />);
    expect(html).toContain("Bought by");
    expect(html).toContain("Collected on Friday 27 November");
    expect(html).not.toMatch(/Ships to|Shipping:|Delivered on/);
  });

  it("keeps a parcel's address, shipping line and delivery", () => {
    const html = renderToStaticMarkup(<OrderOverview order={order("TNT")} />);
    expect(html).toContain("Ships to");
    expect(html).toContain("Shipping: Tracked parcel");
    expect(html).toContain("Delivered on Friday 27 November");
  });
});
