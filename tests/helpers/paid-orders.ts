import { env } from "@/env";
import type { ItemType, ShippingMethod } from "@/lib/enums";
import { startPayment } from "@/server/checkout/payment";
import type { PlaceOrderInput } from "@/server/checkout/schemas";
import type { Db } from "@/server/db/client";
import { completeSandboxPayment, createSandboxPayments } from "@/server/integrations/payments/sandbox";
import { applyPaymentUpdate } from "@/server/orders/service";
import { handleMollieWebhook } from "@/server/webhooks/service";
import { makeStockedProduct, placeGuestOrder } from "./factories";
import { startWebhookReceiver } from "./webhook-receiver";

export type PaidOrderSpec = {
  email: string;
  /** The pieces bought (one of each unless told); each is stocked through the ledger first, just enough for the order. */
  items: { name: string; price?: string; itemType?: ItemType; quantity?: number }[];
  shippingMethod?: ShippingMethod;
  /** Where it goes; a buyer in Amsterdam unless told otherwise. */
  address?: Partial<PlaceOrderInput["address"]>;
  couponCode?: string;
};

/**
 * Paid orders as the shop makes them: placed through checkout (`placeGuestOrder`), paid on the sandbox provider's
 * page, and settled by the Mollie webhook route, which the sandbox calls on a local port, at `now`. `payments` is
 * that sandbox provider, to refund through. Call `close` when done.
 */
export async function startPaidOrders(db: Db, now: Date) {
  const payments = createSandboxPayments({ db, baseUrl: "http://127.0.0.1" });
  const receiver = await startWebhookReceiver((url, body) =>
    handleMollieWebhook(db, { url, body, payments, onPaymentUpdate: (tx, update) => applyPaymentUpdate(tx, update, now) }),
  );
  const webhookUrl = `${receiver.url}/api/webhooks/mollie?secret=${encodeURIComponent(env.WEBHOOK_SECRET)}`;

  async function placePaidOrder(spec: PaidOrderSpec): Promise<{ orderId: number; orderNumber: string; productIds: number[] }> {
    const products = [];
    for (const { quantity = 1, ...item } of spec.items) products.push(await makeStockedProduct(db, { ...item, stock: quantity }));
    const placed = await placeGuestOrder(
      db,
      {
        email: spec.email,
        address: spec.address,
        shippingMethod: spec.shippingMethod,
        items: products.map((product, index) => ({ productId: product.id, quantity: spec.items[index]!.quantity ?? 1 })),
        couponCode: spec.couponCode,
      },
      now,
    );
    const { checkoutUrl } = await startPayment(db, placed, { payments, redirectUrl: "http://127.0.0.1/checkout/return", webhookUrl, shopName: env.SHOP_NAME });
    const { notified } = await completeSandboxPayment(db, checkoutUrl.split("/").pop()!, "paid");
    if (!notified) throw new Error(`The payment webhook of order ${placed.orderNumber} was not taken`);
    return { orderId: placed.orderId, orderNumber: placed.orderNumber, productIds: products.map((product) => product.id) };
  }

  return { placePaidOrder, payments, close: receiver.close };
}
