import { env } from "@/env";
import type { ItemType, ShippingMethod } from "@/lib/enums";
import { startPayment } from "@/server/checkout/payment";
import type { PlaceOrderInput } from "@/server/checkout/schemas";
import { placeOrder } from "@/server/checkout/service";
import type { Db } from "@/server/db/client";
import { completeSandboxPayment, createSandboxPayments } from "@/server/integrations/payments/sandbox";
import { applyPaymentUpdate } from "@/server/orders/service";
import { handleMollieWebhook } from "@/server/webhooks/service";
import { makeStockedProduct } from "./factories";
import { startWebhookReceiver } from "./webhook-receiver";

export type PaidOrderSpec = {
  email: string;
  /** The pieces bought, one of each; each is stocked through the ledger first. */
  items: { name: string; price?: string; itemType?: ItemType }[];
  shippingMethod?: ShippingMethod;
  /** Where it goes; a buyer in Amsterdam unless told otherwise. */
  address?: Partial<PlaceOrderInput["address"]>;
};

/**
 * Paid orders as the shop makes them: placed through checkout (`placeOrder`), paid on the sandbox provider's page,
 * and settled by the Mollie webhook route, which the sandbox calls on a local port, at `now`. Call `close` when done.
 */
export async function startPaidOrders(db: Db, now: Date) {
  const payments = createSandboxPayments({ db, baseUrl: "http://127.0.0.1" });
  const receiver = await startWebhookReceiver((url, body) =>
    handleMollieWebhook(db, { url, body, payments, onPaymentUpdate: (tx, update) => applyPaymentUpdate(tx, update, now) }),
  );
  const webhookUrl = `${receiver.url}/api/webhooks/mollie?secret=${encodeURIComponent(env.WEBHOOK_SECRET)}`;

  async function placePaidOrder(spec: PaidOrderSpec): Promise<{ orderId: number; orderNumber: string }> {
    const products = [];
    for (const item of spec.items) products.push(await makeStockedProduct(db, { ...item, stock: 1 }));
    const placed = await placeOrder(
      db,
      {
        email: spec.email,
        address: { firstName: "Ada", lastName: "Lovelace", street: "Dam", houseNumber: "1", postCode: "1012 JS", city: "Amsterdam", countryCode: "NL", ...spec.address },
        shippingMethod: spec.shippingMethod ?? "TNT",
        paymentMethod: "IDEAL",
        items: products.map((product) => ({ productId: product.id, quantity: 1 })),
      },
      { userId: null },
      now,
    );
    const { checkoutUrl } = await startPayment(db, placed, { payments, redirectUrl: "http://127.0.0.1/checkout/return", webhookUrl, shopName: env.SHOP_NAME });
    const { notified } = await completeSandboxPayment(db, checkoutUrl.split("/").pop()!, "paid");
    if (!notified) throw new Error(`The payment webhook of order ${placed.orderNumber} was not taken`);
    return { orderId: placed.orderId, orderNumber: placed.orderNumber };
  }

  return { placePaidOrder, close: receiver.close };
}
