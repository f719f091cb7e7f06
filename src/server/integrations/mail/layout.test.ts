import { describe, expect, it } from "vitest";
import { emailItemRow, emailLineRow, renderOrderEmail } from "./layout";

describe("an e-mail about an order", () => {
  const order = { email: "ada@example.com", orderNumber: "BC-2026-000123" };
  const message = renderOrderEmail(order, {
    kind: "shipping-confirmation",
    key: order.orderNumber,
    subject: "Your order BC-2026-000123 is on its way",
    preheader: "It has left our workshop.",
    body: "<p>On its way</p>",
    text: ["Your order BC-2026-000123 is on its way."],
    orderUrl: "https://shop.example/orders/BC-2026-000123",
    links: ["https://track.example/1"],
    shopName: "Balance & Crown",
  });

  it("goes to the order's address, named for good by its kind and key", () => {
    expect(message).toMatchObject({ to: "ada@example.com", kind: "shipping-confirmation", idempotencyKey: "shipping-confirmation/BC-2026-000123" });
    expect(message.links).toEqual(["https://track.example/1", "https://shop.example/orders/BC-2026-000123"]);
  });

  it("ends its text with the order's link and the shop's name, and names the order in the footer", () => {
    expect(message.text).toBe(
      ["Your order BC-2026-000123 is on its way.", "", "See your order: https://shop.example/orders/BC-2026-000123", "", "Balance & Crown"].join("\n"),
    );
    expect(message.html).toContain("Balance &amp; Crown · Sent to ada@example.com about order BC-2026-000123");
    expect(message.html).toContain("<p>On its way</p>");
  });

  it("writes an item row as a line with its amount, escaped", () => {
    expect(emailItemRow({ quantity: 2, name: "Strap <brown>" }, "€10.00")).toBe(emailLineRow("2 × Strap <brown>", "€10.00"));
    expect(emailLineRow("Strap <brown>")).toContain("Strap &lt;brown&gt;");
  });
});
