import "server-only";
import { Decimal } from "decimal.js";
import { eq, inArray, sql } from "drizzle-orm";
import type { OrderStatus } from "@/lib/enums";
import { formatEuro } from "@/lib/money";
import type { Db } from "@/server/db/client";
import { orderAddress, orderDetail, orderDiscount, orderItem, paymentDetail, refund, stockRecord, stockRecordCost } from "@/server/db/schema";
import type { DiscountUse } from "@/server/discounts/schemas";
import { AppError } from "@/server/errors";
import { logOrderChange } from "@/server/logbook/service";
import { bookStockInProductOrder, type StockBooking } from "@/server/stock/service";
import { editedStatus, loadOrder, openPaymentProblem, paidOrderProblem, paidStatus } from "./editable-order";
import { insertOrder, lockStock, orderAddressValues, orderShippingValues, paymentAmounts } from "./insert-order";
import { priceDraft, priceNewOrder, refuseProblems, stockRefusal } from "./manual-order-pricing";
import type { CreateManualOrderValues, ManualOrderSaved, MarkManualOrderPaidValues, UpdateManualOrderValues } from "./manual-order-schemas";
import { transitionOrder } from "./service";
import { storedOrderTotals } from "./totals";
import { recordSalesShare } from "./sales-rollup";

/**
 * Orders staff enter by hand (a phone or counter sale) and edits of orders not yet shipped. They are priced like
 * the shop prices (a new line costs the shop's price in force: the list price less the best PRODUCT or GLOBAL
 * discount; coupons and personal discounts are for the web shop, staff give those as an override with a reason),
 * shipped like checkout ships, written by the same `insertOrder` as checkout, take their stock through the ledger and
 * are logged. The live preview (`quoteManualOrder`) and saving run the same pricing, so what staff see is what is
 * stored.
 *
 * Like a web shop order, a manual order records the discounts that took money off it (`order_discount`, which the
 * discounts admin counts as uses and revenue): the PRODUCT or GLOBAL discount of each line sold at the shop's price.
 * A line at staff's override records none (staff chose its price), nor does a line kept as sold in an edit. An edit
 * keeps what the order recorded as it was, and adds the uses of lines it adds at the shop's price (see
 * `recordAddedDiscounts`).
 */

type Actor = { userId: string; now?: Date };

/** What the logbook keeps of an order's lines. */
function loggedLines(lines: { productId: number; name: string; quantity: number; totalPrice: Decimal; totalDiscountAmount: Decimal; priceOverrideReason: string | null }[]) {
  return lines.map(({ productId, name, quantity, totalPrice, totalDiscountAmount, priceOverrideReason }) => ({ productId, name, quantity, totalPrice, totalDiscountAmount, priceOverrideReason }));
}

/** What the logbook keeps of the discounts an order records. */
function loggedDiscounts(uses: DiscountUse[]) {
  return uses.map(({ discountId, discountType, name, amount }) => ({ discountId, discountType, name, amount }));
}

/**
 * An edit keeps the discounts its order recorded as they were: `order_discount` names a discount per order, not per
 * line, so which line a recorded amount came from is not known, and a line kept as sold keeps the price (and so the
 * discount) it was sold with. Lines the edit adds at the shop's price add their discounts' uses: a discount the order
 * already names has the amount added to its row, another gets a row of its own. A line removed or reduced leaves the
 * recorded amount as it was: the order still counts as one use of the discount, and revenue is read from the lines.
 */
async function recordAddedDiscounts(tx: Db, orderId: number, uses: DiscountUse[]): Promise<void> {
  if (uses.length === 0) return;
  await tx
    .insert(orderDiscount)
    .values(uses.map(({ discountId, discountType, name, amount }) => ({ orderId, discountId, discountType, name, amount })))
    .onConflictDoUpdate({
      target: [orderDiscount.orderId, orderDiscount.discountId],
      set: { amount: sql`${orderDiscount.amount} + excluded.amount`, updatedAt: new Date() },
    });
}

/**
 * Creates a manual order in one transaction: the customer's order (it appears in their order history) or one for
 * someone without an account, its stock taken through the ledger (refusing more than is in stock), written by the
 * same `insertOrder` as checkout. Paid at once, it moves through `transitionOrder` to PAID_READY_TO_SHIP, or to
 * PAID_FUTURE_SHIPMENT when the customer wants it shipped later; unpaid, it waits PENDING on account until staff
 * mark it paid (`markManualOrderPaid`).
 */
export async function createManualOrder(db: Db, input: CreateManualOrderValues, actor: Actor): Promise<ManualOrderSaved> {
  const now = actor.now ?? new Date();
  return db.transaction(async (tx) => {
    const priced = await priceNewOrder(tx, input.userId, { ...input, countryCode: input.address.countryCode, regionCode: input.address.stateCode ?? undefined }, now);
    const shipping = priced.shipping!;
    const { totals } = priced;

    const { orderId, orderNumber } = await insertOrder(tx, {
      userId: input.userId,
      bookedBy: actor.userId,
      placedByStaff: true,
      lines: priced.orderLines,
      address: input.address,
      email: input.email,
      shipping,
      shop: "WEBSHOP",
      provider: input.paymentMethod,
      totals,
      discounts: priced.discountUses,
    });
    await logOrderChange(tx, orderId, {
      userId: actor.userId,
      newState: {
        orderNumber,
        manual: true,
        status: "PENDING",
        customerId: input.userId,
        email: input.email,
        items: loggedLines(priced.lines),
        discounts: loggedDiscounts(priced.discountUses),
        shipping: { method: shipping.method, cost: totals.shipping, surcharge: totals.surcharge, waived: input.waiveShipping, countryCode: shipping.countryCode, regionCode: shipping.regionCode, estimatedShippingDate: shipping.estimatedShippingDate },
        paymentMethod: input.paymentMethod,
        total: totals.total,
      },
      description: `Manual order ${orderNumber} entered by staff for ${input.email}: ${formatEuro(totals.total)} by ${input.paymentMethod}${input.paid ? "" : ", to be paid"}`,
    });
    let status: OrderStatus = "PENDING";
    if (input.paid) {
      status = await paidStatus(tx, shipping.estimatedShippingDate, now);
      await transitionOrder(tx, orderId, status, { userId: actor.userId, description: `Marked paid by staff (${input.paymentMethod}).`, now });
    }
    return { orderId, orderNumber, status, total: totals.total, previousTotal: null, wasPaid: false };
  });
}

/**
 * Saves an edit of an order not yet shipped (PENDING, paid, or PROCESSED without a label): its address, lines and
 * shipping. Under the order's row lock, the stock of each changed line moves through the ledger by the difference
 * (refusing more than is available), a removed line's pieces go back to stock, the totals are computed again and the
 * payment detail's charges follow them. A paid order not yet packed follows its new shipping date between ready and
 * future shipment. The previous and new state are logged. A paid order keeps what was paid as its payment's total and
 * may not come to cost more than that (`paidOrderProblem`); what an edit takes off is left to refund, and the log
 * says how much.
 */
export async function updateManualOrder(db: Db, input: UpdateManualOrderValues, actor: Actor): Promise<ManualOrderSaved> {
  const now = actor.now ?? new Date();
  return db.transaction(async (tx) => {
    const loaded = await loadOrder(tx, input.orderNumber, true);
    if (loaded.lockedReason) throw new AppError("CONFLICT", loaded.lockedReason);
    const { order: current, held, payment } = loaded;
    const orderNumber = current.orderNumber;
    const kept = new Set(input.lines.map((line) => line.productId));
    const removed = loaded.lines.filter((line) => !kept.has(line.productId));

    // Every product the edit touches is locked in one go, in id order; a line may hold what it held plus the stock.
    await lockStock(tx, [...input.lines, ...removed.map((line) => ({ productId: line.productId, quantity: 0 }))], stockRefusal, (productId, stock) => stock + (held.get(productId)?.quantity ?? 0));
    const priced = await priceDraft(tx, { ...input, countryCode: input.address.countryCode, regionCode: input.address.stateCode ?? undefined }, held, now);
    const paymentProblems = [openPaymentProblem(loaded, priced.totals), paidOrderProblem(loaded, priced.totals)].filter((problem): problem is string => problem !== null);
    refuseProblems([...paymentProblems, ...priced.problems]);
    if (removed.length > 0) {
      const refunded = await tx.select({ itemId: refund.refundedOrderItemId }).from(refund).where(inArray(refund.refundedOrderItemId, removed.map((line) => line.itemId)));
      const line = removed.find((candidate) => refunded.some((row) => row.itemId === candidate.itemId));
      if (line) throw new AppError("CONFLICT", `"${line.name}" has been refunded in part; it cannot be removed from order ${orderNumber}.`);
    }
    const shipping = priced.shipping!;
    const { totals } = priced;
    const previousTotals = storedOrderTotals(loaded.lines, payment);

    const bookings: StockBooking[] = [];
    const book = (productId: number, quantity: number, orderItemId: number | undefined, description: string) =>
      bookings.push({ productId, quantity, type: "ORDER_ITEM", orderItemId, userId: actor.userId, description: `Order ${orderNumber} edited by staff: ${description}` });
    for (const line of priced.lines) {
      const values = { quantity: line.quantity, totalPrice: line.totalPrice, totalDiscountAmount: line.totalDiscountAmount, priceOverrideReason: line.priceOverrideReason };
      const sold = held.get(line.productId);
      if (sold) {
        await tx.update(orderItem).set(values).where(eq(orderItem.id, sold.itemId));
        if (line.quantity !== sold.quantity) book(line.productId, sold.quantity - line.quantity, sold.itemId, `${line.name} ${sold.quantity} → ${line.quantity}`);
      } else {
        const [added] = await tx.insert(orderItem).values({ orderId: current.id, productId: line.productId, ...values }).returning({ id: orderItem.id });
        book(line.productId, -line.quantity, added!.id, `${line.quantity} × ${line.name} added`);
      }
    }
    // A removed line's pieces go back through the ledger into the lots the line took them from; then its ledger rows
    // and their costs keep their quantities but no longer name the line, which is deleted (the logbook keeps what it was).
    for (const line of removed) book(line.productId, line.quantity, line.itemId, `${line.quantity} × ${line.name} removed, back in stock`);
    await bookStockInProductOrder(tx, bookings);
    if (removed.length > 0) {
      const removedIds = removed.map((line) => line.itemId);
      await tx.update(stockRecord).set({ orderItemId: null }).where(inArray(stockRecord.orderItemId, removedIds));
      await tx.update(stockRecordCost).set({ orderItemId: null }).where(inArray(stockRecordCost.orderItemId, removedIds));
      await tx.delete(orderItem).where(inArray(orderItem.id, removedIds));
    }

    await recordAddedDiscounts(tx, current.id, priced.discountUses);

    const address = orderAddressValues(input.address, input.email, shipping);
    await tx.update(orderAddress).set(address).where(eq(orderAddress.orderId, current.id));
    await tx.update(orderDetail).set(orderShippingValues(shipping)).where(eq(orderDetail.orderId, current.id));
    // The charges follow the edit (the order's totals are read from them and its lines); a paid order's `total` stays
    // what the customer paid (see `paidOrderProblem`).
    const paid = current.status !== "PENDING";
    const amounts = paymentAmounts(totals);
    await tx.update(paymentDetail).set(paid ? { ...amounts, total: payment.total } : amounts).where(eq(paymentDetail.orderId, current.id));

    const { address: previousAddress, detail } = loaded;
    const owed = payment.total.minus(totals.total);
    const settle = paid && owed.isPositive() && !totals.total.equals(previousTotals.total)
      ? ` The customer paid ${formatEuro(payment.total)}: refund the difference of ${formatEuro(owed)} under Refunds on the order page.`
      : "";
    await logOrderChange(tx, current.id, {
      userId: actor.userId,
      previousState: {
        address: orderAddressValues(previousAddress, previousAddress.email, { countryCode: previousAddress.countryCode, countryName: previousAddress.country, regionCode: previousAddress.stateCode, regionName: previousAddress.state }),
        items: loggedLines(loaded.lines),
        shipping: { method: detail.shippingMethod, estimatedShippingDate: detail.estimatedShippingDate, estimatedDeliveryDate: detail.estimatedDeliveryDate },
        totals: previousTotals,
      },
      newState: {
        address,
        items: loggedLines(priced.lines),
        ...(priced.discountUses.length > 0 ? { discountsAdded: loggedDiscounts(priced.discountUses) } : {}),
        shipping: { method: shipping.method, estimatedShippingDate: shipping.estimatedShippingDate, estimatedDeliveryDate: shipping.estimatedDeliveryDate, waived: input.waiveShipping },
        totals,
      },
      description: `Order ${orderNumber} edited by staff: total ${formatEuro(previousTotals.total)} → ${formatEuro(totals.total)}.${settle}`,
    });

    const status = await editedStatus(tx, current.status, shipping.estimatedShippingDate, now);
    if (status !== current.status) {
      await transitionOrder(tx, current.id, status, { userId: actor.userId, description: `Its shipping date is now ${shipping.estimatedShippingDate ?? "not planned"}.`, now });
    }
    // A paid order's lines, country or charges may have changed what it adds to the owner's figures.
    await recordSalesShare(tx, current.id);
    // What the customer paid or is to pay before this edit, as the preview's `previousTotal`.
    return { orderId: current.id, orderNumber, status, total: totals.total, previousTotal: payment.total, wasPaid: paid };
  });
}

/**
 * Marks a PENDING order paid that is settled with staff (no payment at a provider): records how it was paid and
 * moves it to PAID_READY_TO_SHIP, or PAID_FUTURE_SHIPMENT when its shipping date lies after the next shipping day.
 */
export async function markManualOrderPaid(db: Db, input: MarkManualOrderPaidValues, actor: Actor): Promise<ManualOrderSaved> {
  const now = actor.now ?? new Date();
  return db.transaction(async (tx) => {
    const loaded = await loadOrder(tx, input.orderNumber, true);
    const { order: current, payment, detail } = loaded;
    if (current.status !== "PENDING") throw new AppError("CONFLICT", `Order ${current.orderNumber} is ${current.status.toLowerCase()}, not awaiting payment.`);
    if (payment.externalPaymentId) {
      throw new AppError("CONFLICT", `Order ${current.orderNumber} is paid through ${payment.provider} (payment ${payment.externalPaymentId}); that payment settles it.`);
    }
    await tx.update(paymentDetail).set({ provider: input.paymentMethod }).where(eq(paymentDetail.orderId, current.id));
    const status = await paidStatus(tx, detail.estimatedShippingDate, now);
    await transitionOrder(tx, current.id, status, { userId: actor.userId, description: `Marked paid by staff (${input.paymentMethod}, was ${payment.provider}).`, now });
    return { orderId: current.id, orderNumber: current.orderNumber, status, total: payment.total, previousTotal: null, wasPaid: false };
  });
}
