import { env } from "@/env";
import type { ItemType, DeliveryMethod } from "@/lib/enums";
import { startPayment } from "@/server/checkout/payment";
import type { PlacedOrder, PlaceOrderInput } from "@/server/checkout/schemas";
import type { Db } from "@/server/db/client";
import type { PaymentsPort } from "@/server/integrations/payments/port";
import { completeSandboxPayment, createSandboxPayments, type SandboxOutcome } from "@/server/integrations/payments/sandbox";
import { applyPaymentUpdate } from "@/server/orders/service";
import { handleMollieWebhook } from "@/server/webhooks/service";
import { makeStockedProduct, placeGuestOrder } from "./factories";
import { startWebhookReceiver } from "./webhook-receiver";

export type PaidOrderSpec = {
  email: string;
  /** The pieces bought (one of each unless told); each is stocked through the ledger first, just enough for the order. */
  items: { name: string; price?: string; itemType?: ItemType; quantity?: number }[];
  shippingMethod?: DeliveryMethod;
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

/**
 * Starts a placed order's payment on the sandbox provider and, unless `outcome` is null (the buyer never finishes),
 * finishes it there with `outcome` and hands the provider's webhook call to the handler the Mollie webhook route
 * runs, settling the order at `at`, without a server listening.
 */
export async function payOnSandbox(db: Db, placed: PlacedOrder, payments: PaymentsPort, outcome: SandboxOutcome | null, at: Date): Promise<void> {
  const webhookUrl = `https://shop.example/api/webhooks/mollie?secret=${encodeURIComponent(env.WEBHOOK_SECRET)}`;
  const { checkoutUrl } = await startPayment(db, placed, { payments, redirectUrl: "https://shop.example/return", webhookUrl, shopName: "Balance & Crown" });
  if (!outcome) return;
  const paymentId = checkoutUrl.split("/").pop()!;
  await completeSandboxPayment(db, paymentId, outcome);
  await handleMollieWebhook(db, { url: webhookUrl, body: `id=${paymentId}`, payments, onPaymentUpdate: (tx, update) => applyPaymentUpdate(tx, update, at) });
}
