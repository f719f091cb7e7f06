// A guest buying through the shop's HTTP API the way the browser does: tRPC calls batched and encoded with the
// shop's superjson transformer, the visitor token in `x-token`, mutations sent from the shop's own origin. The client
// address is one of the bench's making (X-Forwarded-For, for a shop started with TRUSTED_PROXY_HOPS=1).
import type { Client } from "pg";
import { transformer } from "@/lib/trpc/transformer";
import type { CheckoutShippingInput, PlaceOrderInput } from "@/server/checkout/schemas";
import type { QuoteInput } from "@/server/pricing/schemas";

const requestTimeoutMs = 30_000;

/** What a call came to: the procedure's answer, the shop's refusal (its error code), or no answer at all. */
export type CallOutcome<T> = { kind: "answered"; data: T } | { kind: "refused"; code: string } | { kind: "failed" };

export type Guest = { baseUrl: string; clientAddress: string; visitorToken?: string };

/** One call as the browser's batch link sends it: a query as GET with the input in the address, a mutation as POST. */
async function call<T>(guest: Guest, procedure: string, kind: "query" | "mutation", input: unknown): Promise<CallOutcome<T>> {
  const batch = JSON.stringify({ 0: transformer.serialize(input) });
  const headers: Record<string, string> = { "x-forwarded-for": guest.clientAddress };
  if (guest.visitorToken) headers["x-token"] = guest.visitorToken;
  let status: number;
  let text: string;
  try {
    const response =
      kind === "query"
        ? await fetch(`${guest.baseUrl}/api/trpc/${procedure}?batch=1&input=${encodeURIComponent(batch)}`, { headers, signal: AbortSignal.timeout(requestTimeoutMs) })
        : await fetch(`${guest.baseUrl}/api/trpc/${procedure}?batch=1`, {
            method: "POST",
            headers: { ...headers, "content-type": "application/json", origin: guest.baseUrl },
            body: batch,
            signal: AbortSignal.timeout(requestTimeoutMs),
          });
    status = response.status;
    text = await response.text();
  } catch {
    // No answer, or the connection broke off in the middle of one.
    return { kind: "failed" };
  }
  type Answer = { result?: { data: Parameters<typeof transformer.deserialize>[0] }; error?: { json: { data?: { code?: string } } } };
  let answer: Answer | undefined;
  try {
    [answer] = JSON.parse(text) as Answer[];
  } catch {
    answer = undefined;
  }
  if (answer?.result) return { kind: "answered", data: transformer.deserialize(answer.result.data) as T };
  return { kind: "refused", code: answer?.error?.json.data?.code ?? `HTTP ${status}` };
}

/** A new visitor's token (`shared.token.manage` without a token), as the browser asks on a first visit. */
export async function visitorToken(guest: Guest): Promise<CallOutcome<string>> {
  return call<string>(guest, "shared.token.manage", "mutation", {});
}

/** The cart drawer pricing the visitor's local cart, after a product was added to it. */
export async function priceCart(guest: Guest, input: QuoteInput): Promise<CallOutcome<unknown>> {
  return call(guest, "shared.pricing.quote", "query", input);
}

/** The checkout page's quote of the order for the chosen destination. */
export async function quoteCheckout(guest: Guest, input: CheckoutShippingInput): Promise<CallOutcome<unknown>> {
  return call(guest, "shared.checkout.quote", "query", input);
}

export type Outcome = { kind: "placed"; orderNumber: string } | { kind: "refused"; code: string } | { kind: "failed" };

/** One guest order, as the checkout page sends it. */
export async function placeOrder(guest: Guest, input: PlaceOrderInput): Promise<Outcome> {
  const outcome = await call<{ orderNumber: string }>(guest, "shared.checkout.placeOrder", "mutation", input);
  return outcome.kind === "answered" ? { kind: "placed", orderNumber: outcome.data.orderNumber } : outcome;
}

/** One or two products, one piece each, for buyer `buyer`'s order number `round`, with the sandbox iDEAL payment. */
export function guestOrder(buyer: number, round: number, productIds: number[]): PlaceOrderInput {
  const count = 1 + Math.floor(Math.random() * 2);
  const chosen = new Set<number>();
  while (chosen.size < Math.min(count, productIds.length)) chosen.add(productIds[Math.floor(Math.random() * productIds.length)]!);
  return {
    email: `buyer${buyer}.${round}@example.com`,
    address: { firstName: "Ada", lastName: `Buyer ${buyer}`, street: "Keizersgracht", houseNumber: String(round + 1), postCode: "1015 CJ", city: "Amsterdam", countryCode: "NL" },
    shippingMethod: "TNT",
    paymentMethod: "IDEAL",
    items: [...chosen].map((productId) => ({ productId, quantity: 1 })),
  };
}

/** Products whose stock is not the sum of their stock ledger: what no order load may leave behind. */
export const productsOffLedgerSql = `select count(*)::int as n from product p
  where p.stock <> coalesce((select sum(s.quantity) from stock_record s where s.product_id = p.id), 0)`;

/** A `select count(*)::int as n` query's answer. */
export async function count(client: Client, query: string, values: unknown[] = []): Promise<number> {
  const { rows } = await client.query<{ n: number }>(query, values);
  return rows[0]?.n ?? 0;
}
