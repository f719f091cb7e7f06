import { Decimal } from "decimal.js";
import { and, eq } from "drizzle-orm";
import type { PlaceOrderInput } from "@/server/checkout/schemas";
import type { Db } from "@/server/db/client";
import { orderItem, product } from "@/server/db/schema";
import type { PaymentsPort } from "@/server/integrations/payments/port";
import { createManualOrderInput, updateManualOrderInput } from "@/server/orders/manual-order-schemas";
import { createManualOrder, updateManualOrder } from "@/server/orders/manual-order-service";
import { cancelOrder, createRefund } from "@/server/refunds/service";
import { correctInventory } from "@/server/stock/service";
import { setExchangeRate } from "./admin-fixtures";
import { amsterdamAddress, makeProduct, placeGuestOrder, stockFromBox } from "./factories";
import { payOnSandbox } from "./paid-orders";

/*
 * A shop's history that moves stock every way the shop does, through its own services, for the tests that hold the
 * recorded cost of each piece (and what is built on it) against a first-bought-first-sold worked out from scratch:
 * a watch bought in two boxes in peso at two exchange rates (€10.00 at 60, €11.00 at 65) and a strap in a third; web
 * orders paid, refunded with and without restocking, cancelled unpaid and cancelled after payment by staff (one after a
 * damaged piece was refunded and kept out of stock); a manual
 * order entered and edited; a write-off, pieces found, and an order left unpaid.
 */

export type CostScenario = {
  watchId: number;
  strapId: number;
  /** The orders by what happens to them, each with its id and number. */
  orders: Record<"paidThenRefundedKept" | "paidThenRestocked" | "failedPayment" | "cancelledByStaff" | "cancelledAfterDamage" | "editedManual" | "unpaid" | "paidLast", { orderId: number; orderNumber: string }>;
};

/** Builds the history at `now` and the minutes after it (orders and payments; the ledger dates its rows by the clock). */
export async function buildCostScenario(db: Db, options: { adminId: string; payments: PaymentsPort; now: Date }): Promise<CostScenario> {
  const { adminId, payments, now } = options;
  const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
  const staff = (minutes: number) => ({ userId: adminId, now: at(minutes) });
  const ports = { paymentsFor: () => payments };
  const placed = (items: PlaceOrderInput["items"], minutes: number) => placeGuestOrder(db, { email: "costs@example.com", items }, at(minutes));
  const paid = async (items: PlaceOrderInput["items"], minutes: number) => {
    const order = await placed(items, minutes);
    await payOnSandbox(db, order, payments, "paid", at(minutes));
    return order;
  };
  const lineOf = async (order: { orderId: number }, productId: number) => {
    const [line] = await db.select({ id: orderItem.id }).from(orderItem).where(and(eq(orderItem.orderId, order.orderId), eq(orderItem.productId, productId)));
    return line!.id;
  };

  const watch = await makeProduct(db, { name: "Seiko 5 of the cost scenario", price: "100.00", stock: 0 });
  const strap = await makeProduct(db, { name: "Strap of the cost scenario", price: "20.00", stock: 0 });
  await setExchangeRate(db, "60");
  await stockFromBox(db, adminId, { productId: watch.id, quantity: 4, unitCost: "600.00", currency: "PHP" });
  await stockFromBox(db, adminId, { productId: strap.id, quantity: 5, unitCost: "120.00", currency: "PHP" });
  await setExchangeRate(db, "65");
  await stockFromBox(db, adminId, { productId: watch.id, quantity: 4, unitCost: "715.00", currency: "PHP" });

  // Three watches of the first box and a strap; one watch refunded, damaged, kept out of stock.
  const paidThenRefundedKept = await paid([{ productId: watch.id, quantity: 3 }, { productId: strap.id, quantity: 1 }], 1);
  // The first box's last watch and one of the second's; one comes back with a restocking refund (the second box's).
  const paidThenRestocked = await paid([{ productId: watch.id, quantity: 2 }], 2);
  const refund = (order: { orderNumber: string }, orderItemId: number, restock: boolean, minutes: number) =>
    createRefund(db, { orderNumber: order.orderNumber, kind: "PRODUCT", orderItemId, quantity: 1, restock, amount: new Decimal("10.00"), reason: "DAMAGED" }, staff(minutes), ports);
  await refund(paidThenRefundedKept, await lineOf(paidThenRefundedKept, watch.id), false, 3);
  await refund(paidThenRestocked, await lineOf(paidThenRestocked, watch.id), true, 4);

  // One watch damaged in the shop, two found in a drawer.
  await correctInventory(db, { productId: watch.id, quantity: -1, reason: "DAMAGED" }, adminId);
  await correctInventory(db, { productId: watch.id, quantity: 2, reason: "OTHER", comment: "Found in a drawer" }, adminId);

  // A web order whose payment fails: cancelled, its pieces back.
  const failedPayment = await placed([{ productId: watch.id, quantity: 1 }, { productId: strap.id, quantity: 2 }], 5);
  await payOnSandbox(db, failedPayment, payments, "failed", at(5));
  // Paid, then cancelled by staff from its page, refunded in full.
  const cancelledByStaff = await paid([{ productId: watch.id, quantity: 1 }], 6);
  await cancelOrder(db, { orderNumber: cancelledByStaff.orderNumber }, staff(7), ports);

  // Paid, one strap refunded as damaged and kept out of stock, then cancelled by staff: the other strap comes back.
  const cancelledAfterDamage = await paid([{ productId: strap.id, quantity: 2 }], 7);
  await refund(cancelledAfterDamage, await lineOf(cancelledAfterDamage, strap.id), false, 7);
  await cancelOrder(db, { orderNumber: cancelledAfterDamage.orderNumber }, staff(7), ports);

  // A manual order on account for three watches, edited down to one and a strap added.
  const manualAddress = { ...amsterdamAddress, firstName: "Grace", lastName: "Hopper" };
  const editedManual = await createManualOrder(
    db,
    createManualOrderInput.parse({ userId: null, address: manualAddress, email: "grace@example.com", shippingMethod: "TNT", paymentMethod: "ACCOUNT", paid: false, lines: [{ productId: watch.id, quantity: 3 }] }),
    staff(8),
  );
  await updateManualOrder(
    db,
    updateManualOrderInput.parse({ orderNumber: editedManual.orderNumber, address: manualAddress, email: "grace@example.com", shippingMethod: "TNT", lines: [{ productId: watch.id, quantity: 1 }, { productId: strap.id, quantity: 1 }] }),
    staff(9),
  );

  // Left unpaid: its pieces held.
  const unpaid = await placed([{ productId: watch.id, quantity: 1 }], 10);
  // What is left of the watches, the pieces found among them, and a strap.
  const [{ stock: watchesLeft }] = (await db.select({ stock: product.stock }).from(product).where(eq(product.id, watch.id))) as [{ stock: number }];
  const paidLast = await paid([{ productId: watch.id, quantity: watchesLeft }, { productId: strap.id, quantity: 1 }], 11);

  const ids = (order: { orderId: number; orderNumber: string }) => ({ orderId: order.orderId, orderNumber: order.orderNumber });
  return {
    watchId: watch.id,
    strapId: strap.id,
    orders: {
      paidThenRefundedKept: ids(paidThenRefundedKept),
      paidThenRestocked: ids(paidThenRestocked),
      failedPayment: ids(failedPayment),
      cancelledByStaff: ids(cancelledByStaff),
      cancelledAfterDamage: ids(cancelledAfterDamage),
      editedManual: ids(editedManual),
      unpaid: ids(unpaid),
      paidLast: ids(paidLast),
    },
  };
}
