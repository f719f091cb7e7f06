import { describe, expect, it } from "vitest";
import { notificationLink } from "./links";

describe("where a notification leads", () => {
  it("is the order's page for a notification about an order, a refund or an eBay order", () => {
    expect(notificationLink("Order BC-2026-000123 is paid (€120.00) and ready to ship")).toBe("/admin/orders/BC-2026-000123");
    expect(notificationLink("New eBay order BC-2026-000124 (eBay 12-34567-89012) from collector77: 2 items for €80.00 to Netherlands")).toBe("/admin/orders/BC-2026-000124");
    expect(notificationLink("Refund 7 of order BC-2026-000125 failed: card expired. Nothing was paid back; retry it from the order page.")).toBe("/admin/orders/BC-2026-000125");
    expect(notificationLink("eBay order 12-34567-89012 was cancelled on eBay: do not ship order BC-2026-000126; cancel it here so its stock comes back.")).toBe("/admin/orders/BC-2026-000126");
  });

  it("is a back-office address the message names, or nowhere", () => {
    expect(notificationLink("The quantity of product 15 could not be pushed to eBay after 5 tries: timeout. Retry it on /admin/ebay.")).toBe("/admin/ebay");
    expect(notificationLink("ada@example.com added a passkey as a second factor.")).toBeNull();
  });
});
