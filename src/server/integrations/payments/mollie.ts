import createMollieClient, { MollieApiError, type Locale, type Payment, type PaymentMethod, type Refund } from "@mollie/api-client";
import {
  createPaymentInput,
  externalPaymentId as externalPaymentIdSchema,
  fromProviderAmount,
  orderIdFromMetadata,
  PaymentProviderError,
  paymentStatuses,
  refundPaymentInput,
  toProviderAmount,
  type OnlinePaymentMethod,
  type PaymentsPort,
  type PaymentStatus,
  type ProviderPayment,
  type ProviderRefund,
  type RefundStatus,
} from "./port";

/** Mollie's method ids (PROVIDERS.md section 1) for our payment method names. */
const mollieMethodIds: Record<OnlinePaymentMethod, string> = {
  APPLEPAY: "applepay",
  BANCONTACT: "bancontact",
  BANKTRANSFER: "banktransfer",
  BELFIUS: "belfius",
  CREDITCARD: "creditcard",
  DIRECTDEBIT: "directdebit",
  EPS: "eps",
  GIFTCARD: "giftcard",
  GIROPAY: "giropay",
  IDEAL: "ideal",
  KBC: "kbc",
  KLARNAPAYNOW: "klarnapaynow",
  KLARNASLICEIT: "klarnasliceit",
  MYBANK: "mybank",
  PAYPAL: "paypal",
  PAYSAFECARD: "paysafecard",
  SOFORT: "sofort",
};

const methodsByMollieId = new Map(Object.entries(mollieMethodIds).map(([ours, theirs]) => [theirs, ours as OnlinePaymentMethod]));

/**
 * The live Mollie adapter, on Mollie's official Node SDK (`@mollie/api-client`), which retries 5xx answers and
 * sends an idempotency key with every POST. `apiEndpoint` points it at a local stand-in in tests; a `test_` key
 * gives Mollie's test mode, a `live_` key real payments.
 */
export function createMolliePayments(options: { apiKey: string; apiEndpoint?: string }): PaymentsPort {
  const client = createMollieClient({
    apiKey: options.apiKey,
    ...(options.apiEndpoint ? { apiEndpoint: options.apiEndpoint } : {}),
  });

  async function fetchPayment(id: string): Promise<ProviderPayment> {
    const paymentId = externalPaymentIdSchema.parse(id);
    return reshapePayment(await call(() => client.payments.get(paymentId)));
  }

  return {
    kind: "live",
    provider: "mollie",

    async createPayment(raw) {
      const input = createPaymentInput.parse(raw);
      const payment = await call(() =>
        client.payments.create({
          amount: { currency: "EUR", value: toProviderAmount(input.amount) },
          description: input.description,
          redirectUrl: input.redirectUrl,
          ...(input.cancelUrl ? { cancelUrl: input.cancelUrl } : {}),
          webhookUrl: input.webhookUrl,
          method: mollieMethodIds[input.method] as PaymentMethod,
          metadata: { orderId: input.orderId },
          ...(input.locale ? { locale: input.locale as Locale } : {}),
          idempotencyKey: input.idempotencyKey,
        }),
      );
      const checkoutUrl = payment.getCheckoutUrl();
      if (!checkoutUrl) {
        throw new PaymentProviderError("Mollie", null, `Mollie created payment ${payment.id} without a checkout link`);
      }
      return { externalPaymentId: payment.id, checkoutUrl, status: reshapeStatus(payment.status) };
    },

    getPayment: fetchPayment,

    async capturePayment(id) {
      const payment = await fetchPayment(id);
      // Only an authorized payment (Klarna, cards with manual capture) has money left to take.
      if (payment.status !== "authorized") return payment;
      await call(() => client.paymentCaptures.create({ paymentId: payment.externalPaymentId, idempotencyKey: `capture-${payment.externalPaymentId}` }));
      return fetchPayment(payment.externalPaymentId);
    },

    async refundPayment(raw) {
      const input = refundPaymentInput.parse(raw);
      const refund = await call(() =>
        client.paymentRefunds.create({
          paymentId: input.externalPaymentId,
          amount: { currency: "EUR", value: toProviderAmount(input.amount) },
          ...(input.description ? { description: input.description } : {}),
          idempotencyKey: input.idempotencyKey,
        }),
      );
      return reshapeRefund(refund);
    },
  };
}

function reshapePayment(payment: Payment): ProviderPayment {
  const method = typeof payment.method === "string" ? (methodsByMollieId.get(payment.method) ?? null) : null;
  const metadata = payment.metadata as { orderId?: unknown } | null | undefined;
  return {
    externalPaymentId: payment.id,
    status: reshapeStatus(payment.status),
    amount: fromProviderAmount("Mollie", payment.amount.value, payment.amount.currency),
    method,
    orderId: orderIdFromMetadata(metadata?.orderId),
  };
}

function reshapeStatus(status: string): PaymentStatus {
  // Mollie's statuses are our vocabulary; anything new it invents is treated as still open rather than guessed at.
  return (paymentStatuses as readonly string[]).includes(status) ? (status as PaymentStatus) : "open";
}

function reshapeRefund(refund: Refund): ProviderRefund {
  // A queued refund waits for balance and a processing one is on its way: both are still pending for the shop.
  const status: RefundStatus =
    refund.status === "refunded" ? "refunded" : refund.status === "failed" ? "failed" : refund.status === "canceled" ? "canceled" : "pending";
  return { externalRefundId: refund.id, status, amount: fromProviderAmount("Mollie", refund.amount.value, refund.amount.currency) };
}

/** Runs an SDK call and turns Mollie's error document (`{status, title, detail, field}`) into a PaymentProviderError. */
async function call<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (error instanceof MollieApiError) {
      const field = error.field ? ` (field ${error.field})` : "";
      const title = (error as unknown as { title?: string }).title;
      throw new PaymentProviderError(
        "Mollie",
        error.statusCode ?? null,
        `Mollie refused the request: ${title ? `${title}: ` : ""}${error.message}${field}`,
        undefined,
        { cause: error },
      );
    }
    throw new PaymentProviderError("Mollie", null, `Mollie could not be reached: ${error instanceof Error ? error.message : String(error)}`, undefined, { cause: error });
  }
}
