import "server-only";
import { Decimal } from "decimal.js";
import { eq, inArray } from "drizzle-orm";
import type { OrderStatus } from "@/lib/enums";
import { formatEuro } from "@/lib/money";
import type { Db } from "@/server/db/client";
import { order, product, user } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { isFutureShipmentNow } from "@/server/shipping/service";
import type { EditableManualOrder, ManualOrderAddressValues } from "./manual-order-schemas";
import { readOrderLines, selectOrderWithDetails } from "./order-rows";
import { orderAddressInput, type OrderTotals } from "./schemas";
import { storedOrderTotals } from "./totals";

/**
 * A placed order as staff edit it: loaded (and locked, when saving) with its lines, whether it can still be edited
 * and why not, what its payment allows an edit to change, and the status it ends in. The edit form starts from
 * `getEditableOrder`; the preview (`./manual-order-pricing.ts`) and saving (`./manual-order-service.ts`) check the same.
 */

/** A line already in an order, with what it was sold for. */
export type HeldLine = { itemId: number; productId: number; name: string; quantity: number; totalPrice: Decimal; totalDiscountAmount: Decimal; priceOverrideReason: string | null };

/** The paid status an order takes with this shipping date: waiting as a future shipment, or ready for the next shipping day. */
export async function paidStatus(db: Db, shippingDate: string | null, now: Date): Promise<"PAID_READY_TO_SHIP" | "PAID_FUTURE_SHIPMENT"> {
  return shippingDate !== null && (await isFutureShipmentNow(db, shippingDate, now)) ? "PAID_FUTURE_SHIPMENT" : "PAID_READY_TO_SHIP";
}

/** The statuses whose order staff may still edit: not shipped, not cancelled. */
const editableStatuses: readonly OrderStatus[] = ["PENDING", "PAID_READY_TO_SHIP", "PAID_FUTURE_SHIPMENT", "PROCESSED"];

/** An order as editing needs it, the order row locked when `lock` is asked for; NOT_FOUND for an unknown number. */
export async function loadOrder(db: Db, orderNumber: string, lock: boolean) {
  const query = selectOrderWithDetails(db).where(eq(order.orderNumber, orderNumber)).limit(1);
  // The order row is the edit's lock: two members of staff saving one order at once take turns, and the second
  // prices against the lines and stock the first left behind.
  const [row] = lock ? await query.for("update", { of: order }) : await query;
  if (!row) throw new AppError("NOT_FOUND", `We cannot find order ${orderNumber}.`);
  const lines: HeldLine[] = await readOrderLines(db, row.order.id);
  const { status } = row.order;
  const { detail } = row;
  const hasLabel = Boolean(detail.gcsLabelFilename || detail.labelCreatedAt || detail.carrierShipmentId || detail.trackingNumber);
  const lockedReason = !editableStatuses.includes(status)
    ? `Order ${orderNumber} is ${status.toLowerCase()}; it can no longer be changed.`
    : hasLabel
      ? `Order ${orderNumber} has a shipping label; void the label first.`
      : null;
  return { ...row, lines, held: new Map(lines.map((line) => [line.productId, line])), lockedReason };
}

/**
 * A payment started at a provider and not yet settled expects the amount it was started for: an edit that changes
 * the total would be refused when the money comes in. Paid orders may change within what was paid (`paidOrderProblem`).
 */
export function openPaymentProblem(loaded: Awaited<ReturnType<typeof loadOrder>>, totals: OrderTotals): string | null {
  const { payment } = loaded;
  if (loaded.order.status !== "PENDING" || !payment.externalPaymentId || totals.total.equals(payment.total)) return null;
  return `Order ${loaded.order.orderNumber} awaits its ${payment.provider} payment of ${formatEuro(payment.total)}; a change to its total would not match what the customer pays. Change only the address, or wait until it is paid.`;
}

/**
 * Once an order is paid, its payment detail's `total` is what the customer paid (captured at the provider, or taken by
 * staff) and an edit no longer moves it: refunds are measured against it (refunds/rules.ts), so that no edit can raise
 * what may be paid back. An edit may still lower the order (the difference is then left to refund, which staff give
 * under Refunds), but it may not make the order cost more than was paid: the shop would be owed money it has no
 * payment for. What is added is entered as a new order, which takes its own payment.
 */
export function paidOrderProblem(loaded: Awaited<ReturnType<typeof loadOrder>>, totals: OrderTotals): string | null {
  const { payment } = loaded;
  if (loaded.order.status === "PENDING" || !totals.total.greaterThan(payment.total)) return null;
  return `Order ${loaded.order.orderNumber} was paid ${formatEuro(payment.total)} (${payment.provider}); this change makes it cost ${formatEuro(totals.total)}. Enter what is added as a new order, which is paid on its own.`;
}

/** The status an edited order ends in: a paid order not yet packed follows its (new) shipping date. */
export async function editedStatus(db: Db, status: OrderStatus, shippingDate: string | null, now: Date): Promise<OrderStatus> {
  return status === "PAID_READY_TO_SHIP" || status === "PAID_FUTURE_SHIPMENT" ? paidStatus(db, shippingDate, now) : status;
}

/** An order as the edit form starts from it, with why it can no longer be edited when that is so. */
export async function getEditableOrder(db: Db, orderNumber: string): Promise<EditableManualOrder> {
  const loaded = await loadOrder(db, orderNumber, false);
  const { order: current, address, detail, payment } = loaded;
  const [customer] = current.userId ? await db.select({ id: user.id, name: user.name, email: user.email }).from(user).where(eq(user.id, current.userId)) : [];
  const stockRows = loaded.lines.length
    ? await db.select({ id: product.id, stock: product.stock }).from(product).where(inArray(product.id, loaded.lines.map((line) => line.productId)))
    : [];
  const stock = new Map(stockRows.map((row) => [row.id, row.stock]));
  const totals = storedOrderTotals(loaded.lines, payment);
  return {
    orderId: current.id,
    orderNumber: current.orderNumber,
    status: current.status,
    customer: customer ?? null,
    lockedReason: loaded.lockedReason,
    address: Object.fromEntries(Object.keys(orderAddressInput.shape).map((field) => [field, address[field as keyof typeof address] ?? ""])) as ManualOrderAddressValues,
    email: address.email,
    lines: loaded.lines.map((line) => {
      const list = line.totalPrice.plus(line.totalDiscountAmount);
      return {
        productId: line.productId,
        name: line.name,
        quantity: line.quantity,
        listPrice: list.dividedBy(line.quantity).toDecimalPlaces(2, Decimal.ROUND_HALF_UP),
        totalPrice: line.totalPrice,
        totalDiscountAmount: line.totalDiscountAmount,
        // A line sold above its list price was stored at that price: as sold, it is its own list price.
        aboveList: new Decimal(0),
        pricing: "AS_SOLD",
        available: (stock.get(line.productId) ?? 0) + line.quantity,
        priceOverrideReason: line.priceOverrideReason,
      };
    }),
    shippingMethod: detail.shippingMethod,
    waiveShipping: payment.shippingTotal.isZero(),
    shipOn: current.status === "PAID_FUTURE_SHIPMENT" ? (detail.estimatedShippingDate ?? "") : "",
    paymentMethod: payment.provider,
    onlinePayment: payment.externalPaymentId !== null,
    totals,
  };
}
