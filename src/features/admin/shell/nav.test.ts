import { describe, expect, it } from "vitest";
import { activeNav, backSteps, environmentBanner, headingFor, navGroups } from "./nav";

describe("admin navigation", () => {
  it("has a sidebar entry for every admin route SPEC section 2 lists, the background jobs, the shipping countries, the eBay overview, customers, received restock requests and the owner's reports", () => {
    const hrefs = navGroups.flatMap((group) => group.items.map((item) => item.href));
    const spec = [
      "/admin/dashboard", "/admin/products", "/admin/products/create", "/admin/products/create-template", "/admin/products/edit-template",
      "/admin/products/restock-manager/pending", "/admin/products/restock-manager/approved", "/admin/products/restock-manager/rejected",
      "/admin/products/restock-manager/received", "/admin/boxes/open", "/admin/boxes/other", "/admin/google-bucket", "/admin/google-bucket/upload",
      "/admin/orders/status/all", "/admin/orders/status/pending", "/admin/orders/status/paid_ready_to_ship",
      "/admin/orders/status/paid_future_shipment", "/admin/orders/status/processed", "/admin/orders/status/shipped",
      "/admin/orders/status/cancelled", "/admin/orders/create", "/admin/orders/edit", "/admin/orders/shipping-calendar",
      "/admin/discounts/create", "/admin/discounts/manage", "/admin/shippingSurcharge/create", "/admin/shippingSurcharge/manage", "/admin/shippingSurcharge/countries",
      "/admin/ebay", "/admin/ebay/manage-ads", "/admin/logbook/level/info", "/admin/logbook/level/warning", "/admin/logbook/level/error",
      "/admin/jobs", "/admin/customers", "/admin/settings/integrations",
      "/admin/reports/sales", "/admin/reports/stock-value", "/admin/reports/aged-stock", "/admin/reports/sell-through", "/admin/reports/sellers",
    ];
    expect(hrefs.sort()).toEqual(spec.sort());
  });

  it("highlights the most specific entry and its group", () => {
    expect(activeNav("/admin/products/restock-manager/approved")).toMatchObject({ group: { id: "products" }, item: { label: "Restock: approved" } });
    expect(activeNav("/admin/products/restock-manager/received")).toMatchObject({ group: { id: "products" }, item: { label: "Restock: received" } });
    expect(activeNav("/admin/products/edit")).toMatchObject({ group: { id: "products" }, item: { href: "/admin/products" } });
    expect(activeNav("/admin/boxes/12")).toMatchObject({ group: { id: "boxes" } });
    expect(activeNav("/admin/orders/BC-2026-000123")).toMatchObject({ group: { id: "orders" }, item: { label: "All orders" } });
    expect(activeNav("/admin/orders/status/paid_ready_to_ship")?.item.label).toBe("Ready to Ship");
    expect(activeNav("/admin/customers/5b0c2a4e-0000-4000-8000-000000000000")).toMatchObject({ group: { id: "customers" }, item: { href: "/admin/customers" } });
  });

  it("names each page in the top bar", () => {
    expect(headingFor("/admin/boxes/12")).toBe("Box 12");
    expect(headingFor("/admin/orders/BC-2026-000123")).toBe("Order BC-2026-000123");
    expect(headingFor("/admin/logbook/level/error")).toBe("Logbook — error");
    expect(headingFor("/admin/orders/status/paid_future_shipment")).toBe("Future Shipments");
    expect(headingFor("/admin/products/create")).toBe("New product");
    expect(headingFor("/admin/products/edit-template")).toBe("Templates");
    expect(headingFor("/admin/boxes/open")).toBe("Open boxes");
    expect(headingFor("/admin/customers")).toBe("Customers");
    expect(headingFor("/admin/settings/integrations")).toBe("Integrations");
    expect(headingFor("/admin/reports/sales")).toBe("Sales and margin");
    expect(headingFor("/admin/reports/aged-stock")).toBe("Aged stock");
    expect(headingFor("/admin/customers/5b0c2a4e-0000-4000-8000-000000000000")).toBe("Customer");
  });

  it("goes back two steps when the address has a sort parameter", () => {
    expect(backSteps(new URLSearchParams("page=2"))).toBe(1);
    expect(backSteps(new URLSearchParams("sort=price.asc"))).toBe(2);
  });

  it("shows the corner banner by server address, and none in production", () => {
    expect(environmentBanner("https://staging.balanceandcrown.com")).toBe("STAGING ENVIRONMENT");
    expect(environmentBanner("https://shop-staging.example.com")).toBe("STAGING ENVIRONMENT");
    expect(environmentBanner("http://localhost:3000")).toBe("DEVELOPMENT ENVIRONMENT");
    expect(environmentBanner("http://127.0.0.1:4100")).toBe("DEVELOPMENT ENVIRONMENT");
    expect(environmentBanner("https://dev.balanceandcrown.com")).toBe("DEVELOPMENT ENVIRONMENT");
    expect(environmentBanner("https://www.balanceandcrown.com")).toBeNull();
  });
});
