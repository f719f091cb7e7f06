import { Decimal } from "decimal.js";
import { z } from "zod";
import { optionalEuroText } from "@/lib/amount-text";
import { MAX_CART_LINES } from "@/lib/cart";
import { deliveryMethods, shippingMethods, type OrderStatus, type PaymentProvider, type ShippingMethod } from "@/lib/enums";
import { rowId } from "@/lib/id";
import { text } from "@/lib/text";
import { postalAddressFields, type CustomerMatch } from "@/server/account/schemas";
import { calendarDay, regionCode } from "@/server/shipping/schemas";
import type { NewOrderLine } from "./insert-order";
import { orderAddressInput, type OrderTotals } from "./schemas";

/**
 * Orders staff enter by hand (a phone or counter sale) and their edits. One schema per form, parsed by the browser
 * form and the server alike (STYLE.md), so a form the browser lets through is one the server accepts.
 */

/**
 * How a manual order is paid: ACCOUNT is paid to the shop itself (cash or card at the counter, or the customer's
 * account with the shop), BANKTRANSFER into the shop's bank account. Neither is started at a payment provider.
 */
export const manualOrderPaymentMethods = ["ACCOUNT", "BANKTRANSFER"] as const satisfies readonly PaymentProvider[];
export type ManualOrderPaymentMethod = (typeof manualOrderPaymentMethods)[number];


/** A calendar day (YYYY-MM-DD); an empty field means none. */
const optionalDay = calendarDay.optional().or(z.literal("").transform(() => undefined));

const orderNumber = text().trim().regex(/^BC-\d{4}-\d{6,}$/, "must be an order number such as BC-2026-000123");

/** A line of a manual order: a product, how many, and optionally what the whole line costs instead of the shop's price. */
export const manualOrderLineInput = z
  .object({
    productId: rowId,
    quantity: z.number().int().min(1, "must be at least 1").max(999, "must be at most 999"),
    /**
     * What the customer pays for the whole line when staff charge another price; left out, a new line costs the
     * shop's price in force and a line already in the order keeps the price it was sold at.
     */
    priceOverride: optionalEuroText,
    /** Why the price was overridden; required with an override, stored in `orderItem.priceOverrideReason`. */
    priceOverrideReason: text()
      .trim()
      .max(200, "must be at most 200 characters")
      .optional()
      .transform((value) => (value ? value : null)),
  })
  .superRefine((line, ctx) => {
    if (line.priceOverride !== undefined && !line.priceOverrideReason) {
      ctx.addIssue({ code: "custom", path: ["priceOverrideReason"], message: "A price override needs a reason" });
    }
  });
export type ManualOrderLineInput = z.input<typeof manualOrderLineInput>;

/** The lines: at least one, each product once (two lines of one product are one line with a larger quantity). */
const manualOrderLines = z
  .array(manualOrderLineInput)
  .min(1, "Add at least one product")
  .max(MAX_CART_LINES, `An order holds at most ${MAX_CART_LINES} different products`)
  .superRefine((lines, ctx) => {
    const seen = new Set<number>();
    lines.forEach((line, index) => {
      if (seen.has(line.productId)) ctx.addIssue({ code: "custom", path: [index, "productId"], message: `Product ${line.productId} is on two lines; change its quantity instead` });
      seen.add(line.productId);
    });
  });

/** What creating and editing share: where it goes, what is in it and how it is shipped. */
const manualOrderShape = {
  address: orderAddressInput,
  email: z.string().trim().toLowerCase().pipe(z.email("Enter a valid e-mail address")),
  lines: manualOrderLines,
  /** A parcel that leaves the shop; a sale collected in the shop is a counter sale (`createCounterSaleInput`). */
  shippingMethod: z.enum(deliveryMethods, { error: "Choose a shipping method" }),
  /**
   * Charge no shipping (nor its insurance surcharge): a counter sale the customer takes along, or postage given
   * away. The method is still recorded, for a label should the order be sent after all.
   */
  waiveShipping: z.boolean().default(false),
  /** The customer wants the parcel to leave no earlier than this day; a paid order then waits as a future shipment. */
  shipOn: optionalDay,
};

/** A new manual order, for an existing customer (`userId`) or for someone without an account (null). */
export const createManualOrderInput = z
  .object({
    userId: text().trim().min(1).max(255).nullable().default(null),
    ...manualOrderShape,
    paymentMethod: z.enum(manualOrderPaymentMethods, { error: "Choose how the order is paid" }),
    /** Staff have the money: the order is paid at once. Unpaid, it waits PENDING until staff mark it paid. */
    paid: z.boolean(),
  })
  .refine((input) => input.paid || input.paymentMethod === "ACCOUNT", {
    path: ["paid"],
    message: "An order still to be paid is taken on account (ACCOUNT); mark it paid when the money arrives",
  });
export type CreateManualOrderInput = z.input<typeof createManualOrderInput>;
export type CreateManualOrderValues = z.output<typeof createManualOrderInput>;

/**
 * A counter sale: paid at the counter and taken along, so no address, no shipping and no shipping day. The invoice
 * names the buyer (a Dutch invoice names whom it is made out to; a business buyer adds its company name, and its
 * address only when it wants a full VAT invoice, which staff then enter as a delivered order's address would be); the
 * e-mail is optional and, when given, receives the order confirmation. A customer picked from the accounts gives
 * the name and e-mail.
 */
export const createCounterSaleInput = z.object({
  userId: text().trim().min(1).max(255).nullable().default(null),
  buyer: postalAddressFields.pick({ firstName: true, lastName: true, companyName: true, phoneNumber: true }),
  email: z
    .union([z.literal(""), z.string().trim().toLowerCase().pipe(z.email("Enter a valid e-mail address"))])
    .optional()
    .transform((value) => value || null),
  lines: manualOrderLines,
  paymentMethod: z.enum(manualOrderPaymentMethods, { error: "Choose how the order is paid" }),
});
export type CreateCounterSaleInput = z.input<typeof createCounterSaleInput>;
export type CreateCounterSaleValues = z.output<typeof createCounterSaleInput>;

/** An edit of an order not yet shipped: its address, lines and shipping. */
export const updateManualOrderInput = z.object({ orderNumber, ...manualOrderShape });
export type UpdateManualOrderInput = z.input<typeof updateManualOrderInput>;
export type UpdateManualOrderValues = z.output<typeof updateManualOrderInput>;

export const manualOrderNumberInput = z.object({ orderNumber });

export const markManualOrderPaidInput = z.object({ orderNumber, paymentMethod: z.enum(manualOrderPaymentMethods) });
export type MarkManualOrderPaidValues = z.output<typeof markManualOrderPaidInput>;

/** A line of the preview: its override may still lack its reason. */
export const manualOrderQuoteLineInput = z.object({ productId: rowId, quantity: z.number().int().min(1).max(999), priceOverride: optionalEuroText });

/**
 * What the live totals preview sends while staff fill in the form: lines may still be incomplete (an override
 * without its reason yet) and the destination unknown. The server prices it exactly as creating or saving would.
 */
export const manualOrderQuoteInput = z.object({
  /** The order being edited; left out for a new order. */
  orderNumber: orderNumber.optional(),
  lines: z.array(manualOrderQuoteLineInput).max(MAX_CART_LINES),
  countryCode: z.string().trim().regex(/^[A-Za-z]{2}$/, "Choose a country").toUpperCase().optional(),
  stateCode: regionCode.toUpperCase().optional().or(z.literal("").transform(() => undefined)),
  shippingMethod: z.enum(shippingMethods),
  waiveShipping: z.boolean().default(false),
  shipOn: optionalDay,
  /** For a new order: whether it is paid at once, which decides the status it gets. */
  paid: z.boolean().default(false),
});
export type ManualOrderQuoteInput = z.input<typeof manualOrderQuoteInput>;
export type ManualOrderQuoteValues = z.output<typeof manualOrderQuoteInput>;

/** A priced line of a manual order: what would be stored of it, with the product's name and where the price comes from. */
export type ManualOrderQuoteLine = Pick<NewOrderLine, "productId" | "quantity" | "totalPrice" | "totalDiscountAmount"> & {
  name: string;
  /** The list price of one piece: today's for a new line, the one it was sold at for a line already in the order. */
  listPrice: Decimal;
  /**
   * How much an override charges above the list price for the whole line (zero otherwise). Such a line is stored at
   * its overridden price with no discount, so `totalDiscountAmount` never goes negative; the reason says why.
   */
  aboveList: Decimal;
  /** Where the price comes from: the shop's price in force, the price the line was sold at, or staff's override. */
  pricing: "SHOP" | "AS_SOLD" | "OVERRIDE";
  /** Pieces this line may hold: the stock, plus what the order already holds of the product when editing. */
  available: number;
};

export type ManualOrderQuote = {
  lines: ManualOrderQuoteLine[];
  /** The destination's shipping for the chosen method; null until a country is chosen or when it cannot ship there. */
  shipping: {
    method: ShippingMethod;
    destination: string;
    /** The method's cost with its insurance surcharge, as checkout would charge it. */
    cost: Decimal;
    waived: boolean;
    estimatedShippingDate: string | null;
    estimatedDeliveryDate: string | null;
    /** Both methods, for the form's choice. */
    options: { method: ShippingMethod; cost: Decimal; available: boolean; unavailableReason: string | null }[];
  } | null;
  totals: OrderTotals;
  /**
   * What overrides charge above the list price, all lines together: part of `totals.items` (such a line is stored at
   * its price with no discount), shown apart so that "Items at list price" is what it says.
   */
  aboveList: Decimal;
  /** A counter sale collected in the shop: no shipping, shipped and collected when saved. */
  collected: boolean;
  /** The status the order gets (or keeps) when saved like this. */
  status: OrderStatus;
  /** When editing: the payment's total, what the customer is to pay or, once paid, what they paid (which edits leave alone). */
  previousTotal: Decimal | null;
  /** Why saving like this would be refused, in staff's words; empty when it can be saved. */
  problems: string[];
};

/** The address as the form holds it: every field as text, empty when there is none. */
export type ManualOrderAddressValues = { [Field in keyof z.input<typeof orderAddressInput>]-?: string };

/** An order as the edit form starts from it, and whether (and why not) it can still be edited. */
export type EditableManualOrder = {
  orderId: number;
  orderNumber: string;
  status: OrderStatus;
  customer: CustomerMatch | null;
  /** Null when the order can be edited; otherwise why not, in staff's words. */
  lockedReason: string | null;
  address: ManualOrderAddressValues;
  email: string;
  lines: (ManualOrderQuoteLine & { priceOverrideReason: string | null })[];
  shippingMethod: ShippingMethod;
  waiveShipping: boolean;
  /** The shipping date a future shipment waits for; empty otherwise. */
  shipOn: string;
  paymentMethod: PaymentProvider;
  /** Paid through a payment provider: its total should not change while the payment is open. */
  onlinePayment: boolean;
  totals: OrderTotals;
};

/**
 * What creating, saving or marking paid answers. `previousTotal`, for a saved edit, is the payment's total as the edit
 * found it (see `ManualOrderQuote`).
 */
export type ManualOrderSaved = {
  orderId: number;
  orderNumber: string;
  status: OrderStatus;
  total: Decimal;
  previousTotal: Decimal | null;
  /** Whether the money was in before this change: an unpaid order that comes to cost less needs no refund. */
  wasPaid: boolean;
};
