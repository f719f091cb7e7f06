import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { paymentDetail } from "@/server/db/schema";
import type { PaymentsPort } from "@/server/integrations/payments/port";
import { logChange } from "@/server/logbook/service";
import { transitionOrder } from "@/server/orders/service";
import type { PlacedOrder } from "./schemas";

/**
 * Starts paying a placed order through the payments port and remembers the provider's payment id on the order's
 * payment detail (the webhook finds the order by it). One idempotency key per order, so a retried request gets the
 * same payment. When the provider refuses, the order is cancelled at once, which returns its stock, and the error
 * goes to the buyer.
 */
export async function startPayment(
  db: Db,
  placed: PlacedOrder,
  options: { payments: PaymentsPort; redirectUrl: string; webhookUrl: string; shopName: string },
): Promise<{ checkoutUrl: string }> {
  try {
    const payment = await options.payments.createPayment({
      orderId: placed.orderId,
      amount: placed.total,
      description: `${options.shopName} order ${placed.orderNumber}`,
      method: placed.paymentMethod,
      redirectUrl: options.redirectUrl,
      webhookUrl: options.webhookUrl,
      idempotencyKey: `order-${placed.orderId}`,
    });
    await db.transaction(async (tx) => {
      const [started] = await tx
        .update(paymentDetail)
        .set({ externalPaymentId: payment.externalPaymentId })
        .where(eq(paymentDetail.orderId, placed.orderId))
        .returning({ id: paymentDetail.id });
      await logChange(tx, {
        userId: null,
        eventType: "ORDER",
        entityType: "PAYMENT_DETAIL",
        entityId: started?.id,
        newState: { provider: options.payments.provider, externalPaymentId: payment.externalPaymentId, status: payment.status },
        description: `Payment ${payment.externalPaymentId} started for order ${placed.orderNumber} (${placed.paymentMethod})`,
      });
    });
    return { checkoutUrl: payment.checkoutUrl };
  } catch (error) {
    await db.transaction((tx) =>
      transitionOrder(tx, placed.orderId, "CANCELLED", { userId: null, description: `The payment could not be started: ${error instanceof Error ? error.message : String(error)}` }),
    );
    throw error;
  }
}
