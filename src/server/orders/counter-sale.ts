import "server-only";
import { eq } from "drizzle-orm";
import { env } from "@/env";
import { formatEuro } from "@/lib/money";
import type { Db } from "@/server/db/client";
import { orderDetail } from "@/server/db/schema";
import { logOrderChange } from "@/server/logbook/service";
import { queueOrderConfirmation } from "./confirmation";
import { insertOrder } from "./insert-order";
import { priceNewOrder } from "./manual-order-pricing";
import type { CreateCounterSaleValues, ManualOrderSaved } from "./manual-order-schemas";
import { transitionOrder } from "./service";

/**
 * A counter sale: the customer pays at the counter and takes the pieces along. It is priced like any manual order
 * (`priceNewOrder`, overrides with their reason), written by the same `insertOrder` (its stock through the ledger), and
 * walks the one order machine in the same transaction: paid, packed, and shipped-and-collected, with `shippedAt` and
 * `deliveredAt` both now. Nothing is left to ship, so no label, packing slip or shipping day is ever offered for it
 * (fulfilment refuses a COLLECTED order), and no shipping e-mail goes; with an e-mail address the buyer gets the
 * order confirmation.
 *
 * An order row needs an address: a counter sale stores the buyer's name (and company) with empty street lines, in the
 * shop's country, where the sale took place (which decides its VAT).
 */

type Actor = { userId: string; now?: Date };

/** The shop's country's name in English, as an order's `country` stores names. */
function shopCountryName(): string {
  return new Intl.DisplayNames(["en"], { type: "region" }).of(env.SHOP_COUNTRY_CODE) ?? env.SHOP_COUNTRY_CODE;
}

export async function createCounterSale(db: Db, input: CreateCounterSaleValues, actor: Actor): Promise<ManualOrderSaved> {
  const now = actor.now ?? new Date();
  return db.transaction(async (tx) => {
    const priced = await priceNewOrder(tx, input.userId, { lines: input.lines, shippingMethod: "COLLECTED", waiveShipping: true }, now);
    const { totals } = priced;
    const email = input.email ?? "";
    const { buyer } = input;

    const { orderId, orderNumber } = await insertOrder(tx, {
      userId: input.userId,
      bookedBy: actor.userId,
      placedByStaff: true,
      lines: priced.orderLines,
      address: { ...buyer, street: "", houseNumber: "", addressLine2: null, postCode: "", city: "", countryCode: env.SHOP_COUNTRY_CODE },
      email,
      shipping: {
        method: "COLLECTED",
        countryCode: env.SHOP_COUNTRY_CODE,
        countryName: shopCountryName(),
        regionCode: null,
        regionName: null,
        estimatedShippingDate: null,
        estimatedDeliveryDate: null,
      },
      shop: "WEBSHOP",
      provider: input.paymentMethod,
      totals,
      discounts: priced.discountUses,
    });
    const buyerName = [buyer.firstName, buyer.lastName].join(" ");
    await logOrderChange(tx, orderId, {
      userId: actor.userId,
      newState: {
        orderNumber,
        manual: true,
        counterSale: true,
        status: "PENDING",
        customerId: input.userId,
        buyer: { ...buyer, email: input.email },
        items: priced.lines.map(({ productId, name, quantity, listPrice, totalPrice, totalDiscountAmount, aboveList, priceOverrideReason }) => ({
          productId, name, quantity, listPrice, totalPrice, totalDiscountAmount, aboveList, priceOverrideReason,
        })),
        shipping: { method: "COLLECTED" },
        paymentMethod: input.paymentMethod,
        total: totals.total,
      },
      description: `Counter sale ${orderNumber} to ${buyerName}, collected in the shop: ${formatEuro(totals.total)} paid by ${input.paymentMethod}`,
    });
    const by = { userId: actor.userId, now };
    await transitionOrder(tx, orderId, "PAID_READY_TO_SHIP", { ...by, description: `Paid at the counter (${input.paymentMethod}).` });
    await transitionOrder(tx, orderId, "PROCESSED", { ...by, description: "Handed over at the counter." });
    await tx.update(orderDetail).set({ shippedAt: now, deliveredAt: now }).where(eq(orderDetail.orderId, orderId));
    await transitionOrder(tx, orderId, "SHIPPED", { ...by, description: "Collected in the shop by the customer." });
    if (email) await queueOrderConfirmation(tx, orderNumber);
    return { orderId, orderNumber, status: "SHIPPED", total: totals.total, previousTotal: null, wasPaid: false };
  });
}
