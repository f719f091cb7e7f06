import type { Decimal } from "decimal.js";
import { z } from "zod";
import { carriers, orderStatuses, shippingMethods, shops, type Carrier, type OrderStatus, type PaymentProvider, type Severity, type Shop, type ShippingMethod } from "@/lib/enums";
import { rowId } from "@/lib/id";
import { listPageInput } from "@/lib/list-page";
import { text } from "@/lib/text";
import type { OrderStanding, OrderView, OrderViewItem } from "./schemas";

/**
 * The order admin's inputs and what it answers (`admin.orders.*`): the order table, one order's page with its
 * timeline, and status changes in bulk. The table's inputs are the address's search parameters, so a page can be
 * reloaded or shared.
 */

/** The order lists of SPEC section 2, as their addresses spell them: /admin/orders/status/{slug}. */
export const orderListSlugs = ["all", "pending", "paid_ready_to_ship", "paid_future_shipment", "processed", "shipped", "cancelled"] as const;
export type OrderListSlug = (typeof orderListSlugs)[number];

/** The status a list shows; null for all of them. */
export function statusOfSlug(slug: OrderListSlug): OrderStatus | null {
  return slug === "all" ? null : (slug.toUpperCase() as OrderStatus);
}

export const orderSortColumns = ["date", "total", "number"] as const;
export type OrderSortColumn = (typeof orderSortColumns)[number];

const day = z.iso.date("must be a date (YYYY-MM-DD)");

export const orderListInput = z
  .object({
    /** One status; none lists them all. */
    status: z.enum(orderStatuses).optional(),
    /** An order number (or its start, or the number after the year), an e-mail (or its start), a name or product words. */
    search: text().trim().max(200).optional(),
    shop: z.enum(shops).optional(),
    countryCode: z
      .string()
      .regex(/^[A-Za-z]{2}$/, "must be a two-letter country code")
      .transform((code) => code.toUpperCase())
      .optional(),
    shippingMethod: z.enum(shippingMethods).optional(),
    carrier: z.enum(carriers).optional(),
    /** Placed on or after this day, in shop time. */
    from: day.optional(),
    /** Placed on or before this day, in shop time. */
    to: day.optional(),
    sort: z.enum(orderSortColumns).default("date"),
    direction: z.enum(["asc", "desc"]).default("desc"),
    ...listPageInput.shape,
  })
  .refine((input) => !input.from || !input.to || input.from <= input.to, { message: "The first day must not lie after the last.", path: ["to"] });
export type OrderListInput = z.input<typeof orderListInput>;
export type OrderListQuery = z.output<typeof orderListInput>;

/** A row of the order table: the order as its read model names it, and what the table shows of it besides. */
export type AdminOrderRow = Pick<OrderView, "orderId" | "orderNumber" | "createdAt" | "status" | "email"> & {
  customer: string;
  countryCode: string;
  country: string;
  /** Every line, in the order they were added. */
  items: { name: string; quantity: number }[];
  /** What the customer pays, from `orderTotals`. */
  total: Decimal;
  shop: Shop;
  shippingMethod: ShippingMethod;
  carrier: Carrier | null;
  trackingNumber: string | null;
  hasLabel: boolean;
  /** Its payment and its parcel, read apart from the one status (`orderStanding`). */
  standing: OrderStanding;
};

/** Up to this many matches (20 pages of 50) are counted exactly; more are estimated. */
export const EXACT_COUNT_LIMIT = 1_000;

export type AdminOrderPage = {
  rows: AdminOrderRow[];
  /**
   * How many orders match: exact up to `EXACT_COUNT_LIMIT`, beyond that the planner's estimate (`totalIsEstimate`),
   * since counting a million rows exactly on every page view costs more than staff gain from the last digit.
   */
  totalItems: number;
  totalIsEstimate: boolean;
  page: number;
  pageSize: number;
  totalPages: number;
};

export const orderNumberInput = z.object({ orderNumber: text().trim().min(1).max(40) });

/** The statuses staff set here; SHIPPED goes through "Mark shipped" and a payment settles PENDING orders. */
export const staffOrderStatuses = ["PAID_READY_TO_SHIP", "PAID_FUTURE_SHIPMENT", "PROCESSED", "CANCELLED"] as const satisfies readonly OrderStatus[];
export type StaffOrderStatus = (typeof staffOrderStatuses)[number];

/** At most this many orders in one bulk change: a day's parcels, with room to spare. */
const MAX_BULK_ORDERS = 500;

export const transitionOrdersInput = z.object({
  orderIds: z.array(rowId).min(1, "Choose at least one order.").max(MAX_BULK_ORDERS, `Choose at most ${MAX_BULK_ORDERS} orders at once.`),
  to: z.enum(staffOrderStatuses),
});
export type TransitionOrdersInput = z.input<typeof transitionOrdersInput>;

/** What a bulk status change did: each order either changed or was refused, with the reason in words for staff. */
export type TransitionOutcome = {
  done: { orderId: number; orderNumber: string; status: OrderStatus }[];
  refused: { orderId: number; orderNumber: string | null; reason: string }[];
};

/** The CSV export's range: paid orders by the day they were paid, both days included, in shop time. */
export const orderExportInput = z
  .object({ from: day, to: day })
  .refine((input) => input.from <= input.to, { message: "The first day must not lie after the last.", path: ["to"] });
export type OrderExportInput = z.output<typeof orderExportInput>;

// One order's page ------------------------------------------------------------------------------------------

export type TimelineKind = "placed" | "status" | "payment" | "webhook" | "email" | "label" | "stock" | "note";

/** Something that happened to an order, from the logbook, the payment provider's callbacks or the stock ledger. */
export type TimelineEntry = {
  at: Date;
  kind: TimelineKind;
  text: string;
  level: Severity;
  /** The member of staff or customer who did it; null for the shop itself (a webhook, a job, a guest). */
  by: string | null;
  /** For a status change: from what to what. */
  change: { from: OrderStatus; to: OrderStatus } | null;
};

export type AdminOrderItem = OrderViewItem & {
  /** The product's first picture. */
  image: string;
  /** Why staff charged another price than the list price (manual orders); null otherwise. */
  priceOverrideReason: string | null;
};

export type AdminOrder = Omit<OrderView, "items"> & {
  items: AdminOrderItem[];
  /** The account that placed it; null for a guest. */
  account: { userId: string; name: string | null; email: string } | null;
  /** The address as entered, for calling or writing to the customer. */
  contact: { firstName: string; lastName: string; companyName: string | null; phoneNumber: string | null; countryCode: string; referenceLine: string | null };
  soldAt: Date | null;
  /** Its payment and its parcel, read apart from the one status (`orderStanding`). */
  standing: OrderStanding;
  shop: Shop;
  /** For an order imported from the marketplace: its id and buyer there, and the pieces it came in for that the web shop had sold. */
  marketplace: { orderId: string; buyer: string | null; oversoldAt: Date | null; oversoldPieces: number } | null;
  payment: {
    method: PaymentProvider;
    /** The provider's payment id; null for a payment that never started or one staff marked paid. */
    externalPaymentId: string | null;
    /** What the provider kept; null until known. */
    providerFees: Decimal | null;
  };
  label: {
    carrierProduct: string | null;
    createdAt: Date | null;
    cost: Decimal | null;
    /** Where staff download the PDF; null without a label. */
    downloadUrl: string | null;
    /** The carrier's last word on the parcel, and when it was asked. */
    trackingStatus: string | null;
    trackingCheckedAt: Date | null;
  };
  totalWeightGrams: number | null;
  /** The order's e-mails to the customer: sent (the mail service took it), on its way, given up, or none yet. */
  emails: { confirmation: OrderEmailState; shipping: OrderEmailState };
  invoiceNumber: string | null;
  /**
   * The statuses staff may move it to from this page (`admin.orders.transition`); CANCELLED goes through
   * `admin.refunds.cancelOrder`, which pays a paid order's money back with it.
   */
  actions: StaffOrderStatus[];
  /** Oldest first. */
  timeline: TimelineEntry[];
};

/**
 * One of an order's e-mails as staff see it: "queued" while it waits to be sent or is being tried again (with the
 * last failure, once there was one), "failed" once every try did.
 */
export type OrderEmailState = { state: "sent" | "queued" | "failed" | "none"; attempts: number; lastError: string | null };
