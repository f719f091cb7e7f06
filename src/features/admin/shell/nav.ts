import type { SidebarInformation } from "@/server/admin/schemas";

/**
 * The back office's routes as SPEC section 2 lists them, grouped as the sidebar shows them. The top bar takes its
 * heading from here too, so a route has one name everywhere.
 */

export type CountKey = (info: SidebarInformation) => number;

export type NavItem = { href: string; label: string; count?: CountKey; tone?: "warning" | "danger" };
export type NavGroup = { id: string; label: string; icon: IconName; items: NavItem[]; count: CountKey };
export type IconName = "dashboard" | "reports" | "products" | "boxes" | "bucket" | "orders" | "customers" | "discounts" | "surcharge" | "marketplace" | "logbook" | "settings";

/** A group's count, shown while it is closed, is what its entries count together, so the two never disagree. */
function withCount(group: Omit<NavGroup, "count">): NavGroup {
  return { ...group, count: (info) => group.items.reduce((sum, item) => sum + (item.count?.(info) ?? 0), 0) };
}

const groups: Omit<NavGroup, "count">[] = [
  { id: "dashboard", label: "Dashboard", icon: "dashboard", items: [{ href: "/admin/dashboard", label: "Overview" }] },
  {
    id: "reports",
    label: "Reports",
    icon: "reports",
    items: [
      { href: "/admin/reports/sales", label: "Sales & margin" },
      { href: "/admin/reports/stock-value", label: "Stock value" },
      { href: "/admin/reports/aged-stock", label: "Aged stock" },
      { href: "/admin/reports/sell-through", label: "Sell-through" },
      { href: "/admin/reports/sellers", label: "Best & worst sellers" },
    ],
  },
  {
    id: "products",
    label: "Products",
    icon: "products",
    items: [
      { href: "/admin/products", label: "All products" },
      { href: "/admin/products/create", label: "New product" },
      { href: "/admin/products/create-template", label: "New template" },
      { href: "/admin/products/edit-template", label: "Templates" },
      { href: "/admin/products/restock-manager/pending", label: "Restock: pending", count: (info) => info.restock.pending },
      { href: "/admin/products/restock-manager/approved", label: "Restock: approved" },
      { href: "/admin/products/restock-manager/rejected", label: "Restock: rejected" },
      { href: "/admin/products/restock-manager/received", label: "Restock: received" },
    ],
  },
  {
    id: "boxes",
    label: "Boxes",
    icon: "boxes",
    items: [
      { href: "/admin/boxes/open", label: "Open boxes", count: (info) => info.boxes.open },
      { href: "/admin/boxes/other", label: "Shipped & exploded", count: (info) => info.boxes.shipped },
    ],
  },
  {
    id: "orders",
    label: "Orders",
    icon: "orders",
    items: [
      { href: "/admin/orders/status/all", label: "All orders" },
      { href: "/admin/orders/status/pending", label: "Pending", count: (info) => info.orders.pending },
      { href: "/admin/orders/status/paid_ready_to_ship", label: "Ready to Ship", count: (info) => info.orders.paidReady },
      { href: "/admin/orders/status/paid_future_shipment", label: "Future Shipments", count: (info) => info.orders.paidFuture },
      { href: "/admin/orders/status/processed", label: "Processed", count: (info) => info.orders.processed },
      { href: "/admin/orders/status/shipped", label: "Shipped" },
      { href: "/admin/orders/status/cancelled", label: "Cancelled" },
      { href: "/admin/orders/create", label: "Add an order" },
      { href: "/admin/orders/edit", label: "Edit an order" },
      { href: "/admin/orders/shipping-calendar", label: "Shipping calendar" },
    ],
  },
  { id: "customers", label: "Customers", icon: "customers", items: [{ href: "/admin/customers", label: "All customers" }] },
  {
    id: "discounts",
    label: "Discounts",
    icon: "discounts",
    items: [
      { href: "/admin/discounts/create", label: "New discount" },
      { href: "/admin/discounts/manage", label: "Manage discounts" },
    ],
  },
  {
    id: "shippingSurcharge",
    label: "Shipping costs",
    icon: "surcharge",
    items: [
      { href: "/admin/shippingSurcharge/create", label: "New surcharge" },
      { href: "/admin/shippingSurcharge/manage", label: "Manage surcharges" },
      { href: "/admin/shippingSurcharge/countries", label: "Countries & regions" },
    ],
  },
  {
    id: "ebay",
    label: "eBay",
    icon: "marketplace",
    items: [
      { href: "/admin/ebay", label: "Overview" },
      { href: "/admin/ebay/manage-ads", label: "Manage ads" },
    ],
  },
  {
    id: "bucket",
    label: "Google bucket",
    icon: "bucket",
    items: [
      { href: "/admin/google-bucket", label: "Browse files" },
      { href: "/admin/google-bucket/upload", label: "Upload" },
    ],
  },
  {
    id: "logbook",
    label: "Logbook",
    icon: "logbook",
    items: [
      { href: "/admin/logbook/level/info", label: "Info", count: (info) => info.logbook.totalCount - info.logbook.warningCount - info.logbook.errorCount },
      { href: "/admin/logbook/level/warning", label: "Warnings", count: (info) => info.logbook.warningCount, tone: "warning" },
      { href: "/admin/logbook/level/error", label: "Errors", count: (info) => info.logbook.errorCount, tone: "danger" },
      { href: "/admin/jobs", label: "Background jobs" },
    ],
  },
  { id: "settings", label: "Settings", icon: "settings", items: [{ href: "/admin/settings/integrations", label: "Integrations" }] },
];

export const navGroups: NavGroup[] = groups.map(withCount);

const isWithin = (pathname: string, href: string) => pathname === href || pathname.startsWith(`${href}/`);

/** The sidebar entry for an address: the longest route that the path is, or lies under. */
export function activeNav(pathname: string): { group: NavGroup; item: NavItem } | null {
  let best: { group: NavGroup; item: NavItem } | null = null;
  for (const group of navGroups) {
    for (const item of group.items) {
      if (isWithin(pathname, item.href) && (!best || item.href.length > best.item.href.length)) best = { group, item };
    }
  }
  // Pages under a group without an entry of their own (a box at /admin/boxes/12, an order at /admin/orders/BC-...)
  // belong to the group's first entry.
  for (const id of ["boxes", "orders"]) {
    if (best || !pathname.startsWith(`/admin/${id}/`)) continue;
    const group = navGroups.find((candidate) => candidate.id === id)!;
    best = { group, item: group.items[0]! };
  }
  return best;
}

/** Headings of pages whose sidebar entry names them otherwise, or that have no entry; the rest take the entry's label. */
const headings: [RegExp, (match: RegExpExecArray) => string][] = [
  [/^\/admin\/dashboard$/, () => "Dashboard"],
  [/^\/admin\/reports\/sales$/, () => "Sales and margin"],
  [/^\/admin\/reports\/sellers$/, () => "Best and worst sellers"],
  [/^\/admin\/products$/, () => "Products"],
  [/^\/admin\/products\/edit$/, () => "Edit product"],
  [/^\/admin\/products\/restock-manager\/(pending|approved|rejected|received)$/, (m) => `Restock manager — ${m[1]}`],
  [/^\/admin\/boxes\/other$/, () => "Shipped & exploded boxes"],
  [/^\/admin\/boxes\/(\d+)$/, (m) => `Box ${m[1]}`],
  [/^\/admin\/google-bucket$/, () => "Google bucket"],
  [/^\/admin\/google-bucket\/upload$/, () => "Upload to the bucket"],
  [/^\/admin\/logbook\/level\/(info|warning|error)$/, (m) => `Logbook — ${m[1]}`],
  [/^\/admin\/orders\/(BC-[\w-]+)$/, (m) => `Order ${m[1]}`],
  [/^\/admin\/shippingSurcharge\/countries\/([A-Za-z]{2})$/, (m) => `Shipping to ${m[1]!.toUpperCase()}`],
  [/^\/admin\/discounts\/manage\/(\d+)$/, (m) => `Discount ${m[1]}`],
  [/^\/admin\/customers$/, () => "Customers"],
  [/^\/admin\/customers\/[^/]+$/, () => "Customer"],
  [/^\/admin\/ebay$/, () => "eBay"],
  [/^\/admin\/security$/, () => "Sign-in security"],
];

/** The top bar's heading for an address. */
export function headingFor(pathname: string): string {
  for (const [pattern, heading] of headings) {
    const match = pattern.exec(pathname);
    if (match) return heading(match);
  }
  return activeNav(pathname)?.item.label ?? "Admin panel";
}

/** SPEC section 2: back goes one history step, or two when the address carries a sort parameter. */
export function backSteps(search: URLSearchParams): number {
  return search.has("sort") ? 2 : 1;
}

/** SPEC section 2's corner banner, from the server's address; production shows none. */
export function environmentBanner(serverUrl: string): "STAGING ENVIRONMENT" | "DEVELOPMENT ENVIRONMENT" | null {
  let host: string;
  try {
    host = new URL(serverUrl).hostname.toLowerCase();
  } catch {
    return "DEVELOPMENT ENVIRONMENT";
  }
  if (/(^|[.-])staging([.-]|$)/.test(host)) return "STAGING ENVIRONMENT";
  const local = host === "localhost" || host.endsWith(".localhost") || host === "127.0.0.1" || host === "::1" || host === "[::1]" || host.endsWith(".local");
  if (local || /(^|[.-])(dev|development)([.-]|$)/.test(host) || /^\d+\.\d+\.\d+\.\d+$/.test(host)) return "DEVELOPMENT ENVIRONMENT";
  return null;
}
