import "server-only";
import { Decimal } from "decimal.js";
import { asc, inArray } from "drizzle-orm";
import type { z } from "zod";
import type { PaymentProvider, ShippingMethod, Shop } from "@/lib/enums";
import { postalLines, type postalAddressInput } from "@/server/account/schemas";
import type { Db } from "@/server/db/client";
import { lockRow } from "@/server/db/lock-row";
import { discount, order, orderAddress, orderDetail, orderDiscount, orderItem, paymentDetail, product } from "@/server/db/schema";
import type { DiscountUse } from "@/server/discounts/schemas";
import { discountUses, notValidMessage } from "@/server/discounts/service";
import { AppError } from "@/server/errors";
import type { ShippingPlace, ShippingQuote } from "@/server/shipping/schemas";
import { bookStockInProductOrder } from "@/server/stock/service";
import type { OrderTotals } from "./schemas";
import type { PricedOrderLine } from "./totals";

/**
 * Writing a new order: the rows every order has (order, items, address, detail, payment detail) and its stock taken
 * through the ledger, for checkout and for staff's manual orders alike. The callers price the order and log it.
 */

/** A line as it is stored: `totalPrice` and `totalDiscountAmount` mean what `orderItem`'s doc comments say. */
export type NewOrderLine = PricedOrderLine & {
  productId: number;
  quantity: number;
  priceOverrideReason?: string | null;
  /** A marketplace order's line: its id there, and its pieces no longer in stock (not taken from the ledger). */
  marketplaceLineItemId?: string;
  oversoldQuantity?: number;
};

/** The address an order ships to, as the one address schema gives it; its state comes from the shipping quote. */
export type OrderAddressValues = z.output<typeof postalAddressInput>;

export type NewOrder = {
  /** The customer the order belongs to; null for a guest. */
  userId: string | null;
  /** Who the stock bookings are logged for: the buyer at checkout, the member of staff for a manual order. */
  bookedBy: string | null;
  lines: NewOrderLine[];
  address: OrderAddressValues;
  email: string;
  /** The chosen method's quote: the destination's names and codes, and the estimated dates. */
  shipping: ShippingPlace & OrderShipping;
  shop: Shop;
  /** Staff entered it: a manual order or a counter sale. */
  placedByStaff?: boolean;
  provider: PaymentProvider;
  totals: OrderTotals;
  /**
   * The discounts that took money off the order as it stands when placed (pricing's `discountUses`): the PRODUCT and
   * GLOBAL discounts of its lines and the USER discount or COUPON of the cart. Recorded in `order_discount`.
   */
  discounts?: DiscountUse[];
  /** The payment's id at its provider, when it was taken before the order was written (a marketplace sale). */
  externalPaymentId?: string;
  /** An order imported from the marketplace: its id and buyer there, and since when it holds pieces sold twice. */
  marketplace?: { orderId: string; buyer: string; oversoldAt: Date | null };
};

/**
 * Locks the products' rows in product id order and reads their stock and name, by product id. Every order locks its
 * products so before its items are written: their foreign keys take a share lock on the product rows, and two
 * transactions holding share locks would deadlock when each then wants the row for the update. The locks hold until
 * the transaction ends, so the stock read here is the stock the ledger then takes from.
 */
export async function lockProducts(tx: Db, productIds: readonly number[]): Promise<Map<number, { stock: number; name: string }>> {
  const ids = [...new Set(productIds)].sort((a, b) => a - b);
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ id: product.id, stock: product.stock, name: product.name })
    .from(product)
    .where(inArray(product.id, ids))
    .orderBy(asc(product.id))
    .for("update");
  return new Map(rows.map(({ id, ...row }) => [id, row]));
}

/**
 * Locks the products of an order's lines (`lockProducts`) and refuses (CONFLICT, in `refusal`'s words) a line that
 * asks for more than `available` allows. `available` defaults to the product's stock; an edited order adds what it
 * already holds.
 */
export async function lockStock<Line extends { productId: number; quantity: number }>(
  tx: Db,
  lines: Line[],
  refusal: (line: Line, left: number, name: string) => string,
  available: (productId: number, stock: number) => number = (_, stock) => stock,
): Promise<void> {
  const byId = await lockProducts(tx, lines.map((line) => line.productId));
  for (const line of lines) {
    const found = byId.get(line.productId);
    const left = available(line.productId, found?.stock ?? 0);
    if (left < line.quantity) throw new AppError("CONFLICT", refusal(line, left, found?.name ?? `product ${line.productId}`));
  }
}

/**
 * Refuses (CONFLICT) an order whose coupon has reached its usage limit: as many paid orders used it as it allows. Each
 * coupon's row is locked first (in id order, until the transaction ends), then its uses are counted, in a statement of
 * its own so that it sees what a payment settling meanwhile committed (`couponsBeyondLimit` locks the row the same
 * way). Unpaid orders hold no use, so a coupon's last use may go to several orders; whichever are paid beyond the
 * limit are put before staff when their payment settles.
 */
async function claimCouponUses(tx: Db, uses: readonly DiscountUse[]): Promise<void> {
  const coupons = uses.filter((use) => use.discountType === "COUPON").sort((a, b) => a.discountId - b.discountId);
  for (const coupon of coupons) {
    const row = await lockRow(tx, discount, coupon.discountId, { usageLimit: discount.usageLimit });
    if (!row || (row.usageLimit !== null && (await discountUses(tx, coupon.discountId)) >= row.usageLimit)) {
      throw new AppError("CONFLICT", notValidMessage(coupon.name));
    }
  }
}

/** The largest amount a money column (numeric(12,2)) holds. */
export const LARGEST_STORED_AMOUNT = new Decimal("9999999999.99");

/** Whether an order's totals fit the money columns; the callers refuse one that does not in their own words. */
export function totalsFitStorage(totals: OrderTotals): boolean {
  return totals.items.lessThanOrEqualTo(LARGEST_STORED_AMOUNT) && totals.total.lessThanOrEqualTo(LARGEST_STORED_AMOUNT);
}

/** The payment detail's amounts for an order's totals: what the payment detail stores under each name. */
export function paymentAmounts(totals: OrderTotals) {
  return {
    itemTotal: totals.items,
    itemTotalDiscountAmount: totals.discount,
    // The insurance surcharge of the order value's band, included in the shipping total.
    additionalShippingFees: totals.surcharge,
    shippingTotal: totals.shipping.plus(totals.surcharge),
    total: totals.total,
  };
}

/** The order address's columns for an address shipped to as `shipping` quoted it. */
export function orderAddressValues(address: OrderAddressValues, email: string, shipping: ShippingPlace) {
  return {
    firstName: address.firstName,
    lastName: address.lastName,
    ...postalLines(address),
    phoneNumber: address.phoneNumber,
    country: shipping.countryName,
    countryCode: shipping.countryCode,
    stateCode: shipping.regionCode,
    state: shipping.regionName,
    email,
  };
}

/** The order detail's shipping columns for a quote. */
/** How and when an order leaves: a quoted delivery, or (a counter sale) collected in the shop. */
export type OrderShipping = Pick<ShippingQuote, "estimatedShippingDate" | "estimatedDeliveryDate"> & { method: ShippingMethod };

export function orderShippingValues(shipping: OrderShipping) {
  return { shippingMethod: shipping.method, estimatedShippingDate: shipping.estimatedShippingDate, estimatedDeliveryDate: shipping.estimatedDeliveryDate };
}

/**
 * Inserts a PENDING order with its items, address, detail, payment detail and the discounts it used, and takes its
 * stock through the ledger, one ORDER_ITEM row per item (in product id order). A coupon at its usage limit refuses
 * the order (see `claimCouponUses`). Call `lockStock` first in the same transaction.
 */
export async function insertOrder(tx: Db, newOrder: NewOrder): Promise<{ orderId: number; orderNumber: string; items: { id: number; productId: number; quantity: number }[] }> {
  const discounts = newOrder.discounts ?? [];
  await claimCouponUses(tx, discounts);
  const [created] = await tx.insert(order).values({ userId: newOrder.userId, status: "PENDING" }).returning({ id: order.id, orderNumber: order.orderNumber });
  if (!created) throw new AppError("INTERNAL_SERVER_ERROR", "The order could not be saved.");
  const { id: orderId, orderNumber } = created;

  const items = await tx
    .insert(orderItem)
    .values(newOrder.lines.map((line) => ({ orderId, ...line })))
    .returning({ id: orderItem.id, productId: orderItem.productId, quantity: orderItem.quantity, oversoldQuantity: orderItem.oversoldQuantity });
  const channel = newOrder.shop === "EBAY" ? " on eBay" : "";
  await bookStockInProductOrder(
    tx,
    items
      .map((item) => ({ ...item, taken: item.quantity - item.oversoldQuantity }))
      .filter((item) => item.taken > 0)
      .map((item) => ({
        productId: item.productId,
        quantity: -item.taken,
        type: "ORDER_ITEM",
        orderItemId: item.id,
        userId: newOrder.bookedBy,
        description: `Sold ${item.taken}${channel} in order ${orderNumber}`,
      })),
  );

  const { marketplace } = newOrder;
  await tx.insert(orderAddress).values({ orderId, ...orderAddressValues(newOrder.address, newOrder.email, newOrder.shipping) });
  await tx.insert(orderDetail).values({
    orderId,
    shop: newOrder.shop,
    placedByStaff: newOrder.placedByStaff ?? false,
    ...orderShippingValues(newOrder.shipping),
    ...(marketplace ? { marketplaceOrderId: marketplace.orderId, marketplaceBuyer: marketplace.buyer, oversoldAt: marketplace.oversoldAt } : {}),
  });
  await tx.insert(paymentDetail).values({ orderId, provider: newOrder.provider, externalPaymentId: newOrder.externalPaymentId ?? null, ...paymentAmounts(newOrder.totals) });
  if (discounts.length > 0) {
    await tx.insert(orderDiscount).values(discounts.map(({ discountId, discountType, name, amount }) => ({ orderId, discountId, discountType, name, amount })));
  }
  return { orderId, orderNumber, items };
}
