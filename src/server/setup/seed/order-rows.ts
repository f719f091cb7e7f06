import "server-only";
import { Decimal } from "decimal.js";
import type { InferInsertModel } from "drizzle-orm";
import type { OrderStatus, Shop } from "@/lib/enums";
import { formatEuro } from "@/lib/money";
import type { CheckoutPaymentMethod } from "@/server/checkout/schemas";
import { orderLinesOfCart } from "@/server/checkout/service";
import type { Db } from "@/server/db/client";
import { logbook, order, orderAddress, orderDetail, orderDiscount, orderItem, paymentDetail } from "@/server/db/schema";
import type { DiscountUse } from "@/server/discounts/schemas";
import { gatewayForMethod } from "@/server/integrations/payments/port";
import { toLogState } from "@/server/logbook/service";
import { orderAddressValues, paymentAmounts } from "@/server/orders/insert-order";
import { orderMachine } from "@/server/orders/order-machine";
import { orderTotals, type PricedOrderLine } from "@/server/orders/totals";
import { priceItemsWithUses } from "@/server/pricing/service";
import { surchargeBandFor, type SurchargeBand } from "@/lib/surcharge";
import { estimatedDeliveryDate, nextShippingDay, shippingOptionsFor, shopDateAndHour } from "@/server/shipping/service";
import { DAY, HOUR } from "./durations";
import type { DemoOrderPlan, PlannedOrder } from "./order-plan";

/*
 * One planned order as the shop would hold it today: its rows, its stock moves and its logbook entries, for
 * `placeDemoOrders` to write in bulk.
 */

export type Rows = {
  orders: InferInsertModel<typeof order>[];
  items: InferInsertModel<typeof orderItem>[];
  addresses: InferInsertModel<typeof orderAddress>[];
  details: InferInsertModel<typeof orderDetail>[];
  payments: InferInsertModel<typeof paymentDetail>[];
  /** The discounts each web shop order used, as checkout records them (`insertOrder`'s `discounts`). */
  discounts: InferInsertModel<typeof orderDiscount>[];
  log: InferInsertModel<typeof logbook>[];
};

/** A stock move of the ledger: an order's pieces taken when it is placed, or given back when it is cancelled. */
export type Move = { at: Date; orderNumber: string; shop: Shop; items: { id: number; productId: number; quantity: number }[]; back: boolean; userId: string | null };

export type ShippingRules = {
  destinations: Map<string, Parameters<typeof shippingOptionsFor>[0] & { countryCode: string; regionCode: string | null; regionName: string | null; eu: boolean }>;
  bands: SurchargeBand[];
};

export type OrderContext = {
  now: Date;
  customerId: string;
  adminId: string;
  base: number;
  plan: DemoOrderPlan;
  rules: ShippingRules;
  nextItemId: () => number;
};

/**
 * One planned order as the shop would hold it today: priced on the day it was placed (web shop: product, global,
 * personal and coupon discounts through the pricing service; eBay: the listing price), its parcel quoted by the
 * shipping rules, its totals from `orderTotals`, each status change checked against the order machine, and the
 * logbook entries its steps write.
 */
export async function orderRows(tx: Db, planned: PlannedOrder, context: OrderContext): Promise<{ rows: Rows; moves: Move[]; status: OrderStatus }> {
  const { buyer, placedAt } = planned;
  const orderId = context.base + planned.number;
  const orderNumber = `BC-${shopDateAndHour(placedAt).date.slice(0, 4)}-${String(orderId).padStart(6, "0")}`;
  const userId = buyer.signedIn ? context.customerId : null;
  const priced = planned.shop === "WEBSHOP" ? await webshopLines(tx, planned, userId) : ebayLines(planned);
  const lines = priced.lines.map((line) => ({ ...line, id: context.nextItemId() }));

  const destination = context.rules.destinations.get(buyer.stateCode ? `${buyer.countryCode}:${buyer.stateCode}` : buyer.countryCode);
  if (!destination) throw new Error(`Demo order ${planned.number}: the shop has no shipping settings for ${buyer.countryCode}`);
  const value = lines.reduce((sum, line) => sum.plus(line.totalPrice), new Decimal(0));
  let shippingDate = nextShippingDay(context.plan.calendar, placedAt);
  const options = shippingOptionsFor(destination, value, surchargeBandFor(context.rules.bands, value), shippingDate);
  const quote = options.find((option) => option.method === planned.method && option.available) ?? options.find((option) => option.method === "TNT")!;
  const totals = orderTotals(lines, { shippingTotal: quote.cost, surcharge: quote.surcharge });
  const eu = destination.eu;

  const log: Rows["log"] = [];
  // Every entry names every column: the rows are written together (`bulkInsert`), which takes no defaults.
  const entry = (at: Date, values: Omit<InferInsertModel<typeof logbook>, "createdAt" | "updatedAt">) =>
    log.push({ previousState: null, newState: null, errorData: null, logLevel: "INFO", ...values, createdAt: at, updatedAt: at });
  const how = planned.shop === "EBAY" ? `imported from eBay (order ${planned.externalPaymentId}, buyer ${buyer.ebayUser})` : `placed by ${userId ? "a customer" : "a guest"} (${buyer.email})`;
  entry(placedAt, {
    userId, eventType: "ORDER", entityType: "ORDER", entityId: String(orderId),
    newState: toLogState({
      orderNumber, status: "PENDING", shop: planned.shop, email: buyer.email,
      items: lines.map((line) => ({ productId: line.productId, quantity: line.quantity, paid: line.totalPrice })),
      discount: priced.discount, shipping: { method: quote.method, cost: quote.cost, surcharge: quote.surcharge, countryCode: destination.countryCode, regionCode: destination.regionCode },
      paymentMethod: planned.payment, total: totals.total,
    }),
    description: `Order ${orderNumber} ${how} for ${formatEuro(totals.total)}, awaiting payment`,
  });
  if (planned.payment !== "EBAY") {
    entry(placedAt, {
      userId: null, eventType: "ORDER", entityType: "PAYMENT_DETAIL", entityId: String(orderId),
      newState: toLogState({ provider: gatewayForMethod(planned.payment), externalPaymentId: planned.externalPaymentId, status: "open" }),
      description: `Payment ${planned.externalPaymentId} started for order ${orderNumber} (${planned.payment})`,
    });
  }

  // The order's course, each step as the order machine allows it and logs it.
  let status: OrderStatus = "PENDING";
  let lastChange = placedAt;
  const move = (to: OrderStatus, at: Date, by: string | null, reason: string) => {
    orderMachine.assert(orderNumber, status, to);
    // Paying sets soldAt; an unpaid order that is cancelled never had one.
    const unpaid = status === "PENDING" && to === "CANCELLED";
    entry(at, {
      userId: by, eventType: "ORDER", entityType: "ORDER", entityId: String(orderId),
      previousState: toLogState({ status, soldAt: status === "PENDING" ? null : planned.paidAt }),
      newState: toLogState({ status: to, soldAt: unpaid ? null : planned.paidAt }),
      description: `Order ${orderNumber}: ${status} → ${to}. ${reason}`,
    });
    status = to;
    lastChange = at;
  };
  const mail = (at: Date, what: string, state: Record<string, unknown>) =>
    entry(at, { userId: null, eventType: "EMAIL", entityType: "ORDER", entityId: String(orderId), newState: toLogState({ ...state, to: buyer.email }), description: `${what} of ${orderNumber} sent to ${buyer.email}` });

  const moves: Move[] = [{ at: placedAt, orderNumber, shop: planned.shop, items: lines, back: false, userId }];
  if (planned.cancelled) {
    move("CANCELLED", planned.cancelled.at, null, cancellationReason(planned));
    moves.push({ at: planned.cancelled.at, orderNumber, shop: planned.shop, items: lines, back: true, userId: null });
  }
  const webshop = planned.shop === "WEBSHOP";
  if (planned.paidAt) {
    move("PAID_READY_TO_SHIP", planned.paidAt, null, planned.payment === "EBAY" ? `eBay order ${planned.externalPaymentId} is paid.` : `${gatewayForMethod(planned.payment)} payment ${planned.externalPaymentId} is paid.`);
    // eBay tells its buyers itself; the web shop sends its confirmation e-mail.
    if (webshop) mail(planned.paidAt, "Order confirmation e-mail", { orderEmailSent: true });
  }
  if (planned.postponedAt) {
    shippingDate = context.plan.calendar.find((day) => day >= shopDateAndHour(new Date(context.now.getTime() + 8 * DAY)).date) ?? shippingDate;
    move("PAID_FUTURE_SHIPMENT", planned.postponedAt, context.adminId, `Shipping moved to ${shippingDate}: the buyer is away until then.`);
  }
  const label = planned.packedAt && quote.method === "TNT" ? shippingLabel(destination.countryCode, eu, orderId) : null;
  if (planned.packedAt) {
    move("PROCESSED", planned.packedAt, context.adminId, label ? `${label.carrier === "UPS" ? "UPS" : "PostNL"} label ${label.trackingNumber} created.` : "Packed for untracked letter post.");
  }
  const tracked = quote.method === "TNT";
  const due = planned.shippedAt && new Date(planned.shippedAt.getTime() + quote.etaDays * DAY + planned.deliveryDelayHours * HOUR);
  const delivered = tracked && due && due.getTime() < context.now.getTime() - HOUR ? due : null;
  if (planned.shippedAt) {
    move("SHIPPED", planned.shippedAt, context.adminId, tracked ? "Handed to the carrier." : "Posted as an untracked letter.");
    if (webshop) mail(planned.shippedAt, "Shipping e-mail", { shippingEmailSent: true });
  }

  const stamp = { createdAt: placedAt, updatedAt: lastChange };
  const shipped = planned.shippedAt !== null;
  const rows: Rows = {
    orders: [{ id: orderId, orderNumber, userId, status, soldAt: planned.paidAt, ...stamp }],
    items: lines.map((line) => ({ id: line.id, orderId, productId: line.productId, quantity: line.quantity, totalPrice: line.totalPrice, totalDiscountAmount: line.totalDiscountAmount, priceOverrideReason: null, createdAt: placedAt, updatedAt: placedAt })),
    addresses: [{ orderId, ...orderAddressValues(buyer, buyer.email, destination), referenceLine: null, ...stamp }],
    details: [{
      orderId, shippingMethod: quote.method, shop: planned.shop, estimatedShippingDate: shippingDate,
      estimatedDeliveryDate: shippingDate && estimatedDeliveryDate(shippingDate, quote.etaDays),
      trackingNumber: label?.trackingNumber ?? null, labelCost: label?.labelCost ?? null, totalWeight: planned.packedAt ? priced.weight : null,
      orderEmailSent: webshop && planned.paidAt !== null, shippingEmailSent: webshop && shipped, carrier: label?.carrier ?? null,
      gcsLabelFilename: null, carrierProduct: label?.carrierProduct ?? null, carrierShipmentId: label?.trackingNumber ?? null,
      labelCreatedAt: label ? planned.packedAt : null, shippedAt: planned.shippedAt,
      trackingStatus: shipped && tracked ? (delivered ? "Delivered" : "In transit") : null,
      trackingCheckedAt: shipped && tracked ? (delivered ?? new Date(context.now.getTime() - 2 * HOUR)) : null,
      deliveredAt: delivered, invoiceNumber: null, ...stamp,
    }],
    payments: [{
      orderId, externalPaymentId: planned.externalPaymentId, provider: planned.payment, ...paymentAmounts(totals),
      providerFees: planned.paidAt ? providerFee(planned.payment, totals.total, eu) : null, ...stamp,
    }],
    // Recorded when the order was placed; a cancelled order keeps its rows (it no longer counts as a use).
    discounts: priced.discountUses.map(({ discountId, discountType, name, amount }) => ({ orderId, discountId, discountType, name, amount, createdAt: placedAt, updatedAt: placedAt })),
    log,
  };
  return { rows, moves, status };
}

function cancellationReason(planned: PlannedOrder): string {
  const { cancelled, payment, externalPaymentId } = planned;
  if (cancelled?.why === "expired" || payment === "EBAY") return "Not paid in time: the shop cancelled the payment and the order expired.";
  return `${gatewayForMethod(payment)} payment ${externalPaymentId} is ${cancelled?.why ?? "canceled"}.`;
}

type PricedLines = { lines: (PricedOrderLine & { productId: number; quantity: number })[]; discount: unknown; discountUses: DiscountUse[]; weight: number };

/** Packed weight in grams: a box, and per piece what a watch or a part weighs. */
function packedWeight(pieces: { price: Decimal; quantity: number }[]): number {
  return 150 + pieces.reduce((grams, piece) => grams + piece.quantity * (piece.price.greaterThanOrEqualTo(100) ? 180 : 40), 0);
}

/**
 * The web shop's lines as checkout writes them: each line's share of the cart discount taken off its total; and the
 * discounts that took money off the order, to record.
 */
async function webshopLines(tx: Db, planned: PlannedOrder, userId: string | null): Promise<PricedLines> {
  const { cart, discountUses } = await priceItemsWithUses(tx, planned.items, { now: planned.placedAt, imageUrl: () => "", userId: userId ?? undefined, couponCode: planned.couponCode, caller: null });
  if (cart.unavailableProductIds.length > 0) throw new Error(`Demo order ${planned.number}: products ${cart.unavailableProductIds.join(", ")} are not sold in the web shop`);
  return { lines: orderLinesOfCart(cart), discount: cart.discount, discountUses, weight: packedWeight(cart.items) };
}

/** eBay sells at the listing price, the product's price; the shop's own discounts do not apply there. */
function ebayLines(planned: PlannedOrder): PricedLines {
  return {
    lines: planned.items.map((item) => ({ productId: item.productId, quantity: item.quantity, totalPrice: item.price.times(item.quantity), totalDiscountAmount: new Decimal(0) })),
    discount: null,
    discountUses: [],
    weight: packedWeight(planned.items),
  };
}

/** What the provider keeps of a payment, roughly at its published rates. */
function providerFee(payment: CheckoutPaymentMethod | "EBAY", total: Decimal, eu: boolean): Decimal {
  const rate = (percent: string, fixed: string) => total.times(percent).dividedBy(100).plus(fixed).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  switch (payment) {
    case "IDEAL":
    case "EPS":
      return new Decimal("0.29");
    case "BANCONTACT":
      return new Decimal("0.39");
    case "KBC":
    case "BELFIUS":
    case "BANKTRANSFER":
      return new Decimal("0.25");
    case "PAYPAL":
      return eu ? rate("2.49", "0.35") : rate("3.49", "0.39");
    case "KLARNAPAYNOW":
    case "KLARNASLICEIT":
      return rate("2.99", "0.35");
    case "EBAY":
      return rate("12.9", "0.35");
    default:
      return eu ? rate("1.8", "0.25") : rate("2.9", "0.25");
  }
}

/**
 * The label a tracked parcel gets: PostNL at home and in the EU (3085 standard parcel, 4907 EU parcel), UPS beyond
 * (11 Standard to Europe, 65 Saver overseas). Numbers are made up in the carriers' formats; no label file is stored.
 */
function shippingLabel(countryCode: string, eu: boolean, orderId: number) {
  const serial = String((orderId * 7_919) % 1_000_000_000).padStart(9, "0");
  if (eu) {
    const home = countryCode === "NL";
    return { carrier: "POSTNL" as const, carrierProduct: home ? "3085" : "4907", trackingNumber: `3SDEVC${serial}`, labelCost: new Decimal(home ? "6.95" : "13.25") };
  }
  const overseas = !["GB", "CH", "NO"].includes(countryCode);
  const service = overseas ? "65" : "11";
  return { carrier: "UPS" as const, carrierProduct: service, trackingNumber: `1Z8E4W17${service}${serial.slice(1)}`, labelCost: new Decimal(overseas ? "38.90" : "24.50") };
}

