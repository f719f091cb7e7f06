import "server-only";
import { Decimal } from "decimal.js";
import { eq, inArray } from "drizzle-orm";
import type { OrderStatus, ShippingMethod } from "@/lib/enums";
import { formatEuro } from "@/lib/money";
import type { Db } from "@/server/db/client";
import { product, user } from "@/server/db/schema";
import type { DiscountUse } from "@/server/discounts/schemas";
import { AppError } from "@/server/errors";
import { combineDiscountUses } from "@/server/pricing/cart-pricing";
import { priceItemsWithUses } from "@/server/pricing/service";
import type { ShippingOptions, ShippingQuote } from "@/server/shipping/schemas";
import { chooseShippingOption, getShippingOptions } from "@/server/shipping/service";
import { editedStatus, loadOrder, openPaymentProblem, paidOrderProblem, paidStatus, type HeldLine } from "./editable-order";
import { lockStock, totalsFitStorage, type NewOrderLine } from "./insert-order";
import type { ManualOrderQuote, ManualOrderQuoteLine, ManualOrderQuoteValues } from "./manual-order-schemas";
import type { OrderTotals } from "./schemas";
import { orderTotals } from "./totals";

/**
 * Pricing a manual order's draft, for the live preview of the form (`quoteManualOrder`) and for saving alike, so what
 * staff see is what is stored: each line at the shop's price in force, as it was sold, or at staff's override; the
 * shipping the destination allows; the totals through `orderTotals`.
 */

/** What is to be priced: the lines asked for and how the order ships. */
/** Refuses (BAD_REQUEST) a draft with problems, naming them all. */
export function refuseProblems(problems: string[]): void {
  if (problems.length > 0) throw new AppError("BAD_REQUEST", problems.join(" "));
}

/** Refuses an order for a customer account that was deleted while staff filled in the form. */
async function refuseMissingCustomer(tx: Db, userId: string | null): Promise<void> {
  if (!userId) return;
  const [customer] = await tx.select({ id: user.id }).from(user).where(eq(user.id, userId));
  if (!customer) throw new AppError("NOT_FOUND", "That customer no longer exists; choose the customer again.");
}

export type Draft = {
  lines: { productId: number; quantity: number; priceOverride?: Decimal; priceOverrideReason?: string | null }[];
  countryCode?: string;
  regionCode?: string;
  shippingMethod: ShippingMethod;
  waiveShipping: boolean;
  shipOn?: string;
};

export type PricedLine = ManualOrderQuoteLine & NewOrderLine & { priceOverrideReason: string | null };

export type PricedDraft = {
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
export function stockRefusal(line: { quantity: number }, left: number, name: string): string {
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
export async function priceDraft(db: Db, draft: Draft, held: Map<number, HeldLine>, now: Date): Promise<PricedDraft> {
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
      // A line charged above its list price (an override with its reason: a rare piece, a special order) is stored
      // at that price with no discount: a negative discount would read as money given back in the books.
      totalDiscountAmount: Decimal.max(listTotal.minus(totalPrice), 0),
      aboveList: Decimal.max(totalPrice.minus(listTotal), 0),
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
  if (draft.shippingMethod === "COLLECTED") {
    // Taken along from the counter: nothing to ship, to price or to plan.
  } else if (!draft.countryCode) {
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

/**
 * A new order staff take (a manual order, a counter sale), priced for saving inside `tx`: its customer still there,
 * its products' stock locked, the draft priced at this moment and refused when it has a problem; `orderLines` are
 * its lines as `insertOrder` writes them.
 */
export async function priceNewOrder(tx: Db, userId: string | null, draft: Draft, now: Date): Promise<PricedDraft & { orderLines: NewOrderLine[] }> {
  await refuseMissingCustomer(tx, userId);
  await lockStock(tx, draft.lines, stockRefusal);
  const priced = await priceDraft(tx, draft, new Map(), now);
  refuseProblems(priced.problems);
  const orderLines = priced.lines.map(({ productId, quantity, totalPrice, totalDiscountAmount, priceOverrideReason }) => ({ productId, quantity, totalPrice, totalDiscountAmount, priceOverrideReason }));
  return { ...priced, orderLines };
}

/** The live preview of the manual order form: the lines, shipping and totals as saving would store them. */
export async function quoteManualOrder(db: Db, input: ManualOrderQuoteValues, now: Date = new Date()): Promise<ManualOrderQuote> {
  const loaded = input.orderNumber ? await loadOrder(db, input.orderNumber, false) : null;
  const draft: Draft = { ...input, regionCode: input.stateCode };
  const priced = await priceDraft(db, draft, loaded?.held ?? new Map(), now);
  const shippingDate = priced.shipping?.estimatedShippingDate ?? null;
  let status: OrderStatus;
  if (input.shippingMethod === "COLLECTED") {
    if (loaded) priced.problems.unshift(`Order ${loaded.order.orderNumber} is sent; only a new order can be collected in the shop.`);
    status = "SHIPPED";
  } else if (loaded) {
    status = await editedStatus(db, loaded.order.status, shippingDate, now);
    const problems = [loaded.lockedReason, openPaymentProblem(loaded, priced.totals), paidOrderProblem(loaded, priced.totals)].filter((problem): problem is string => problem !== null);
    priced.problems.unshift(...problems);
  } else {
    status = input.paid ? await paidStatus(db, shippingDate, now) : "PENDING";
  }
  const { options, shipping } = priced;
  return {
    lines: priced.lines.map(({ productId, name, quantity, listPrice, aboveList, totalPrice, totalDiscountAmount, pricing, available }) => ({
      productId, name, quantity, listPrice, aboveList, totalPrice, totalDiscountAmount, pricing, available,
    })),
    aboveList: priced.lines.reduce((sum, line) => sum.plus(line.aboveList), new Decimal(0)),
    collected: input.shippingMethod === "COLLECTED",
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
