import { Decimal } from "decimal.js";
import type { OrderTotals } from "./schemas";

/** An order line's stored amounts, with the meaning of `orderItem.totalPrice` and `totalDiscountAmount`. */
export type PricedOrderLine = { totalPrice: Decimal; totalDiscountAmount: Decimal };

/**
 * The order's named totals from its lines and what its shipping costs. `shippingTotal` is the shipping charged in
 * all, insurance `surcharge` included (as `paymentDetail.shippingTotal` stores it). Placing an order writes these
 * totals and every page, e-mail and document reads them back through this one function.
 */
export function orderTotals(lines: readonly PricedOrderLine[], charges: { shippingTotal: Decimal; surcharge: Decimal }): OrderTotals {
  const paid = lines.reduce((sum, line) => sum.plus(line.totalPrice), new Decimal(0));
  const discount = lines.reduce((sum, line) => sum.plus(line.totalDiscountAmount), new Decimal(0));
  return {
    items: paid.plus(discount),
    discount,
    shipping: charges.shippingTotal.minus(charges.surcharge),
    surcharge: charges.surcharge,
    total: paid.plus(charges.shippingTotal),
  };
}

/**
 * An order's totals read back from its lines and its payment detail's charges, as `paymentAmounts` stored them: a
 * payment detail without a surcharge charged none.
 */
export function storedOrderTotals(lines: readonly PricedOrderLine[], payment: { shippingTotal: Decimal; additionalShippingFees: Decimal | null }): OrderTotals {
  return orderTotals(lines, { shippingTotal: payment.shippingTotal, surcharge: payment.additionalShippingFees ?? new Decimal(0) });
}
