import "server-only";
import { Decimal } from "decimal.js";
import { eq, inArray, sql } from "drizzle-orm";
import type { OrderStatus } from "@/lib/enums";
import { formatEuro } from "@/lib/money";
import type { Db } from "@/server/db/client";
import { order, orderAddress, orderDetail, orderDiscount, orderItem, paymentDetail, product, refund, stockRecord, user } from "@/server/db/schema";
import type { DiscountUse } from "@/server/discounts/schemas";
import { AppError } from "@/server/errors";
import { logOrderChange } from "@/server/logbook/service";
import { combineDiscountUses } from "@/server/pricing/cart-pricing";
import { priceItemsWithUses } from "@/server/pricing/service";
import type { ShippingOptions, ShippingQuote } from "@/server/shipping/schemas";
import { chooseShippingOption, getShippingOptions, isFutureShipmentNow } from "@/server/shipping/service";
import { bookStockInProductOrder, type StockBooking } from "@/server/stock/service";
import { insertOrder, lockStock, orderAddressValues, orderShippingValues, paymentAmounts, totalsFitStorage, type NewOrderLine } from "./insert-order";
import type {
  CreateManualOrderValues,
  EditableManualOrder,
  ManualOrderAddressValues,
  ManualOrderQuote,
  ManualOrderQuoteLine,
  ManualOrderQuoteValues,
  ManualOrderSaved,
  MarkManualOrderPaidValues,
  UpdateManualOrderValues,
} from "./manual-order-schemas";
import { readOrderLines, selectOrderWithDetails } from "./order-rows";
import { orderAddressInput, type OrderTotals } from "./schemas";
import { transitionOrder } from "./service";
import { orderTotals, storedOrderTotals } from "./totals";

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

/** A line already in an order, with what it was sold for. */
type HeldLine = { itemId: number; productId: number; name: string; quantity: number; totalPrice: Decimal; totalDiscountAmount: Decimal; priceOverrideReason: string | null };

/** What is to be priced: the lines asked for and how the order ships. */
type Draft = {
  lines: { productId: number; quantity: number; priceOverride?: Decimal; priceOverrideReason?: string | null }[];
  countryCode?: string;
  regionCode?: string;
  shippingMethod: ShippingQuote["method"];
  waiveShipping: boolean;
  shipOn?: string;
};

type PricedLine = ManualOrderQuoteLine & NewOrderLine & { priceOverrideReason: string | null };

type PricedDraft = {
  lines: PricedLine[];
  /** The discounts of the lines priced at the shop's price ("SHOP"), added up per discount: what the order records. */
  discountUses: DiscountUse[];
  options: ShippingOptions | null;
  /** The chosen method; null when there is no destination yet or it cannot ship there. */
  shipping: ShippingQuote | null;
  totals: OrderTotals;
  problems: string[];
};

const noImage = () => "";

/** Why a line cannot have what it asks for, in staff's words; the same whether the preview or saving finds it. */
function stockRefusal(line: { quantity: number }, left: number, name: string): string {
  return left <= 0 ? `"${name}" is out of stock.` : `Only ${left} of "${name}" available; the order asks for ${line.quantity}.`;
}

/** `amount` scaled from one quantity of a line to another, to the cent. */
function scaled(amount: Decimal, from: number, to: number): Decimal {
  return from === to ? amount : amount.times(to).dividedBy(from).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/**
 * Prices a draft: each line (a new line at the shop's price in force, a line already in the order at the price it
 * was sold at, scaled to its new quantity, or at staff's override), the chosen shipping method for the destination
 * (nothing when waived), and the totals through `orderTotals`. What would refuse the order is collected in
 * `problems` rather than thrown, for the preview to show; saving refuses when there is any. Only the lines priced at
 * the shop's price keep the discount pricing gave them (`discountUses`).
 */
async function priceDraft(db: Db, draft: Draft, held: Map<number, HeldLine>, now: Date): Promise<PricedDraft> {
  const problems: string[] = [];
  const newLines = draft.lines.filter((line) => !held.has(line.productId));
  const ids = draft.lines.map((line) => line.productId);
  // One after the other: saving prices inside its transaction, which is one connection.
  const { cart, lineDiscountUses } = await priceItemsWithUses(db, newLines, { now, imageUrl: noImage, caller: null });
  const stockRows = ids.length ? await db.select({ id: product.id, stock: product.stock }).from(product).where(inArray(product.id, ids)) : [];
  const shopLines = new Map(cart.items.map((line) => [line.productId, line]));
  const stock = new Map(stockRows.map((row) => [row.id, row.stock]));

  const lines: PricedLine[] = [];
  const keptUses: DiscountUse[] = [];
  for (const line of draft.lines) {
    const sold = held.get(line.productId);
    const shop = shopLines.get(line.productId);
    if (!sold && !shop) {
      problems.push(`Product ${line.productId} is not for sale in the web shop; only products on sale there can be ordered.`);
      continue;
    }
    const name = sold?.name ?? shop!.name;
    const listTotal = sold ? scaled(sold.totalPrice.plus(sold.totalDiscountAmount), sold.quantity, line.quantity) : shop!.price.times(line.quantity);
    let totalPrice: Decimal;
    let pricing: PricedLine["pricing"];
    if (line.priceOverride !== undefined) {
      [totalPrice, pricing] = [line.priceOverride, "OVERRIDE"];
      if (totalPrice.greaterThan(listTotal)) {
        problems.push(`"${name}": an override above the list price (${formatEuro(listTotal)}) is not a discount; change the product's price instead.`);
      }
    } else if (sold) {
      [totalPrice, pricing] = [scaled(sold.totalPrice, sold.quantity, line.quantity), "AS_SOLD"];
    } else {
      [totalPrice, pricing] = [shop!.unitPrice.times(line.quantity), "SHOP"];
      const use = lineDiscountUses.get(line.productId);
      if (use) keptUses.push(use);
    }
    const available = (stock.get(line.productId) ?? 0) + (sold?.quantity ?? 0);
    if (line.quantity > available) problems.push(stockRefusal(line, available, name));
    lines.push({
      productId: line.productId,
      name,
      quantity: line.quantity,
      listPrice: listTotal.dividedBy(line.quantity).toDecimalPlaces(2, Decimal.ROUND_HALF_UP),
      totalPrice,
      totalDiscountAmount: listTotal.minus(totalPrice),
      pricing,
      // An override names its reason; a line kept as sold keeps the reason it was sold with.
      priceOverrideReason: pricing === "OVERRIDE" ? (line.priceOverrideReason ?? null) : pricing === "AS_SOLD" ? sold!.priceOverrideReason : null,
      available,
    });
  }
  if (draft.lines.length === 0) problems.push("Add at least one product.");

  const orderValue = lines.reduce((sum, line) => sum.plus(line.totalPrice), new Decimal(0));
  let options: ShippingOptions | null = null;
  let shipping: ShippingQuote | null = null;
  if (!draft.countryCode) {
    problems.push("Choose the country the order goes to.");
  } else {
    try {
      options = await getShippingOptions(db, { countryCode: draft.countryCode, regionCode: draft.regionCode, orderValue, notBefore: draft.shipOn }, now);
      shipping = chooseShippingOption(options, draft.shippingMethod);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      problems.push(error.message);
    }
  }
  const charged = shipping && !draft.waiveShipping ? shipping : { cost: new Decimal(0), surcharge: new Decimal(0) };
  const totals = orderTotals(lines, { shippingTotal: charged.cost, surcharge: charged.surcharge });
  if (!totalsFitStorage(totals)) problems.push(`An order of more than ${formatEuro(totals.total)} cannot be stored; split it into several orders.`);
  return { lines, discountUses: combineDiscountUses(keptUses), options, shipping, totals, problems };
}

/** The paid status an order takes with this shipping date: waiting as a future shipment, or ready for the next shipping day. */
async function paidStatus(db: Db, shippingDate: string | null, now: Date): Promise<"PAID_READY_TO_SHIP" | "PAID_FUTURE_SHIPMENT"> {
  return shippingDate !== null && (await isFutureShipmentNow(db, shippingDate, now)) ? "PAID_FUTURE_SHIPMENT" : "PAID_READY_TO_SHIP";
}

/** The statuses whose order staff may still edit: not shipped, not cancelled. */
const editableStatuses: readonly OrderStatus[] = ["PENDING", "PAID_READY_TO_SHIP", "PAID_FUTURE_SHIPMENT", "PROCESSED"];

/** An order as editing needs it, the order row locked when `lock` is asked for; NOT_FOUND for an unknown number. */
async function loadOrder(db: Db, orderNumber: string, lock: boolean) {
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
function openPaymentProblem(loaded: Awaited<ReturnType<typeof loadOrder>>, totals: OrderTotals): string | null {
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
function paidOrderProblem(loaded: Awaited<ReturnType<typeof loadOrder>>, totals: OrderTotals): string | null {
  const { payment } = loaded;
  if (loaded.order.status === "PENDING" || !totals.total.greaterThan(payment.total)) return null;
  return `Order ${loaded.order.orderNumber} was paid ${formatEuro(payment.total)} (${payment.provider}); this change makes it cost ${formatEuro(totals.total)}. Enter what is added as a new order, which is paid on its own.`;
}

/** The status an edited order ends in: a paid order not yet packed follows its (new) shipping date. */
async function editedStatus(db: Db, status: OrderStatus, shippingDate: string | null, now: Date): Promise<OrderStatus> {
  return status === "PAID_READY_TO_SHIP" || status === "PAID_FUTURE_SHIPMENT" ? paidStatus(db, shippingDate, now) : status;
}

/** The live preview of the manual order form: the lines, shipping and totals as saving would store them. */
export async function quoteManualOrder(db: Db, input: ManualOrderQuoteValues, now: Date = new Date()): Promise<ManualOrderQuote> {
  const loaded = input.orderNumber ? await loadOrder(db, input.orderNumber, false) : null;
  const draft: Draft = { ...input, regionCode: input.stateCode };
  const priced = await priceDraft(db, draft, loaded?.held ?? new Map(), now);
  const shippingDate = priced.shipping?.estimatedShippingDate ?? null;
  let status: OrderStatus;
  if (loaded) {
    status = await editedStatus(db, loaded.order.status, shippingDate, now);
    const problems = [loaded.lockedReason, openPaymentProblem(loaded, priced.totals), paidOrderProblem(loaded, priced.totals)].filter((problem): problem is string => problem !== null);
    priced.problems.unshift(...problems);
  } else {
    status = input.paid ? await paidStatus(db, shippingDate, now) : "PENDING";
  }
  const { options, shipping } = priced;
  return {
    lines: priced.lines.map(({ productId, name, quantity, listPrice, totalPrice, totalDiscountAmount, pricing, available }) => ({
      productId, name, quantity, listPrice, totalPrice, totalDiscountAmount, pricing, available,
    })),
    shipping:
      options && shipping
        ? {
            method: shipping.method,
            destination: options.regionName ? `${options.regionName}, ${options.countryName}` : options.countryName,
            cost: shipping.cost,
            waived: input.waiveShipping,
            estimatedShippingDate: shipping.estimatedShippingDate,
            estimatedDeliveryDate: shipping.estimatedDeliveryDate,
            options: options.options.map(({ method, cost, available, unavailableReason }) => ({ method, cost, available, unavailableReason })),
          }
        : null,
    totals: priced.totals,
    status,
    previousTotal: loaded ? loaded.payment.total : null,
    problems: priced.problems,
  };
}

/** Refuses (BAD_REQUEST) a draft with problems, naming them all. */
function refuseProblems(problems: string[]): void {
  if (problems.length > 0) throw new AppError("BAD_REQUEST", problems.join(" "));
}

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
    if (input.userId) {
      const [customer] = await tx.select({ id: user.id }).from(user).where(eq(user.id, input.userId));
      if (!customer) throw new AppError("NOT_FOUND", "That customer no longer exists; choose the customer again.");
    }
    await lockStock(tx, input.lines, stockRefusal);
    const priced = await priceDraft(tx, { ...input, countryCode: input.address.countryCode, regionCode: input.address.stateCode ?? undefined }, new Map(), now);
    refuseProblems(priced.problems);
    const shipping = priced.shipping!;
    const { totals } = priced;

    const { orderId, orderNumber } = await insertOrder(tx, {
      userId: input.userId,
      bookedBy: actor.userId,
      lines: priced.lines.map(({ productId, quantity, totalPrice, totalDiscountAmount, priceOverrideReason }) => ({ productId, quantity, totalPrice, totalDiscountAmount, priceOverrideReason })),
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
    return { orderId, orderNumber, status, total: totals.total, previousTotal: null };
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
    // A removed line's pieces go back through the ledger; its earlier ledger rows keep their quantities but no longer
    // name the line, which is deleted (the logbook keeps what it was).
    for (const line of removed) book(line.productId, line.quantity, undefined, `${line.quantity} × ${line.name} removed, back in stock`);
    await bookStockInProductOrder(tx, bookings);
    if (removed.length > 0) {
      const removedIds = removed.map((line) => line.itemId);
      await tx.update(stockRecord).set({ orderItemId: null }).where(inArray(stockRecord.orderItemId, removedIds));
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
    // What the customer paid or is to pay before this edit, as the preview's `previousTotal`.
    return { orderId: current.id, orderNumber, status, total: totals.total, previousTotal: payment.total };
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
    return { orderId: current.id, orderNumber: current.orderNumber, status, total: payment.total, previousTotal: null };
  });
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
