import { Decimal } from "decimal.js";
import { z } from "zod";
import type { MarketplaceOrderFees } from "./port";

/**
 * eBay's Finances API as the shop reads it (apiz.ebay.com/sell/finances/v1, every call signed): the transactions of
 * one order, `GET /transaction?filter=orderId:{...}`, and the fees eBay took for it. A SALE transaction carries the
 * fees eBay withheld from the sale (`totalFeeAmount`, itemised per line in `orderLineItems[].marketplaceFees[]` by
 * `feeType`: FINAL_VALUE_FEE, FINAL_VALUE_FEE_FIXED_PER_ORDER, INTERNATIONAL_FEE, ...); a NON_SALE_CHARGE naming the
 * order (a promoted listing's ad fee, say) is a fee charged apart, its `amount` the fee, its type in `feeType`.
 */

export const financesBase = "/sell/finances/v1";

/** The query of one order's transactions: eBay's filter syntax, the order id in braces. */
export function orderTransactionsQuery(orderId: string, offset = 0): string {
  return new URLSearchParams({ filter: `orderId:{${orderId}}`, limit: "200", offset: String(offset) }).toString();
}

const amount = z.object({ value: z.coerce.string(), currency: z.string().optional() });
const fee = z.object({ feeType: z.string().catch("OTHER"), amount });
export const ebayTransaction = z.object({
  transactionId: z.string(),
  orderId: z.string().optional(),
  transactionType: z.string(),
  bookingEntry: z.enum(["CREDIT", "DEBIT"]).optional(),
  amount: amount.optional(),
  totalFeeAmount: amount.optional(),
  feeType: z.string().optional(),
  orderLineItems: z.array(z.object({ lineItemId: z.string(), marketplaceFees: z.array(fee).optional() })).optional(),
});
export type EbayTransaction = z.infer<typeof ebayTransaction>;
export const transactionsPage = z.object({ transactions: z.array(ebayTransaction).catch([]), total: z.number().optional(), next: z.string().optional() });

const add = (byType: Record<string, Decimal>, type: string, value: Decimal) => {
  byType[type] = (byType[type] ?? new Decimal(0)).plus(value);
};

/**
 * The fees of an order from its transactions; null while there is no SALE transaction for it (eBay books it some
 * time after the payment), so that the caller asks again later rather than record no fees.
 */
export function orderFeesOf(orderId: string, transactions: readonly EbayTransaction[]): MarketplaceOrderFees | null {
  const ofOrder = transactions.filter((transaction) => transaction.orderId === orderId);
  const sales = ofOrder.filter((transaction) => transaction.transactionType === "SALE");
  if (sales.length === 0) return null;
  const byType: Record<string, Decimal> = {};
  let total = new Decimal(0);
  for (const sale of sales) {
    const itemised = (sale.orderLineItems ?? []).flatMap((line) => line.marketplaceFees ?? []);
    const saleTotal = sale.totalFeeAmount ? new Decimal(sale.totalFeeAmount.value) : itemised.reduce((sum, entry) => sum.plus(entry.amount.value), new Decimal(0));
    for (const entry of itemised) add(byType, entry.feeType, new Decimal(entry.amount.value));
    // What the total holds beyond the itemised fees still is a fee: kept under its own name rather than lost.
    const unitemised = saleTotal.minus(itemised.reduce((sum, entry) => sum.plus(entry.amount.value), new Decimal(0)));
    if (!unitemised.isZero()) add(byType, "OTHER_FEES", unitemised);
    total = total.plus(saleTotal);
  }
  for (const charge of ofOrder.filter((transaction) => transaction.transactionType === "NON_SALE_CHARGE" && transaction.amount)) {
    const value = new Decimal(charge.amount!.value).abs();
    const signed = charge.bookingEntry === "CREDIT" ? value.negated() : value;
    add(byType, charge.feeType ?? "NON_SALE_CHARGE", signed);
    total = total.plus(signed);
  }
  return { total: total.toDecimalPlaces(2), byType: Object.fromEntries(Object.entries(byType).map(([type, value]) => [type, value.toDecimalPlaces(2)])) };
}
