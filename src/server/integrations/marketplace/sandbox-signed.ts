import "server-only";
import { generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import { Decimal } from "decimal.js";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/server/db/client";
import { configParams, sandboxMarketplaceOrder } from "@/server/db/schema";
import { ebayAmount, refundRequest, toOrderRefunds } from "./ebay-records";
import { financesBase, orderTransactionsQuery, type EbayTransaction } from "./ebay-finances";
import { ebaySignatureHeaders, publicKeyOf, verifyEbaySignature, type SignableRequest } from "./ebay-signature";
import { MarketplaceError, type MarketplaceRefund, type MarketplaceRefundRequest } from "./port";
import { asOrderRecord, marketplaceError, newRefundId, refusals } from "./sandbox-records";
import { changeOrder } from "./sandbox-rows";
import type { EbaySigningKeyStore, StoredSigningKey } from "./signing-key-store";

/*
 * The sandbox marketplace's calls that eBay wants signed (issue_refund, the Finances API), played as eBay plays them:
 * the shop's side builds eBay's request and signs it with the key from its signing key store (made, when there is
 * none, by the sandbox's own Key Management stand-in); the sandbox's side verifies the signature over the documented
 * components with the public key it issued, and refuses an unsigned or wrongly signed call with eBay's errors before
 * doing anything. The public keys it issued are kept in configParams SANDBOX_EBAY_SIGNING_KEYS (nothing secret).
 */

const SANDBOX_KEYS_PARAM = "SANDBOX_EBAY_SIGNING_KEYS";
const sandboxApi = "https://api.sandbox.ebay.com";
const sandboxApiz = "https://apiz.sandbox.ebay.com";
/** eBay's keys hold three years. */
const keyLifetimeMs = 3 * 365 * 24 * 60 * 60_000;

const issuedKeys = z.array(z.object({ signingKeyId: z.string(), jwe: z.string(), publicKey: z.string(), expiresAt: z.iso.datetime() }));
type IssuedKey = z.infer<typeof issuedKeys>[number];

/** The keys in the row's text; an empty row (as the seed leaves it) or one that does not read holds none. */
function keysIn(text: string | undefined): IssuedKey[] {
  try {
    const parsed = issuedKeys.safeParse(JSON.parse(text ?? "[]"));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

async function readIssuedKeys(db: Db): Promise<IssuedKey[]> {
  const [row] = await db.select({ value: configParams.value }).from(configParams).where(eq(configParams.param, SANDBOX_KEYS_PARAM));
  return keysIn(row?.value);
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

/**
 * The sandbox's createSigningKey (POST /developer/key_management/v1/signing_key, ED25519): a new key pair, the
 * private key handed out once as eBay does (base64 PKCS#8), the public key kept under its JWE. The JWE has eBay's
 * compact form; only the sandbox reads it, by looking it up.
 */
export async function createSandboxSigningKey(db: Db, now: Date): Promise<StoredSigningKey> {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const signingKeyId = crypto.randomUUID();
  const header = base64url(JSON.stringify({ zip: "DEF", kid: signingKeyId, enc: "A256GCM", alg: "A256GCMKW" }));
  const jwe = [header, base64url(randomBytes(32)), base64url(randomBytes(12)), base64url(randomBytes(96)), base64url(randomBytes(16))].join(".");
  const expiresAt = new Date(now.getTime() + keyLifetimeMs);
  const issued: IssuedKey = { signingKeyId, jwe, publicKey: publicKey.export({ format: "der", type: "spki" }).toString("base64"), expiresAt: expiresAt.toISOString() };
  await db.transaction(async (tx) => {
    await tx.insert(configParams).values({ param: SANDBOX_KEYS_PARAM, value: "[]" }).onConflictDoNothing({ target: configParams.param });
    const [row] = await tx.select({ value: configParams.value }).from(configParams).where(eq(configParams.param, SANDBOX_KEYS_PARAM)).for("update");
    const keys = keysIn(row?.value);
    await tx
      .update(configParams)
      .set({ value: JSON.stringify([...keys, issued]), updatedAt: now })
      .where(eq(configParams.param, SANDBOX_KEYS_PARAM));
  });
  return { signingKeyId, jwe, privateKey: privateKey.export({ format: "der", type: "pkcs8" }).toString("base64"), expiresAt };
}

/** The shop's side of a signed call: the stored key (or a new one from the key service), and the headers it makes. */
export function sandboxSigner(db: Db, store: EbaySigningKeyStore) {
  return async function signedHeaders(request: SignableRequest, now: Date = new Date()): Promise<Headers> {
    let key = await store.read();
    if (!key || key.expiresAt.getTime() <= now.getTime()) {
      key = await createSandboxSigningKey(db, now);
      await store.write(key);
    }
    return new Headers({ "content-type": "application/json", ...ebaySignatureHeaders(request, key, now) });
  };
}

/**
 * eBay's side: refuses the call unless its signature holds with a key the sandbox issued and that has not expired.
 * Every sandbox call eBay wants signed (the Post-Order API's refund, decide and cancellation calls too) starts here.
 */
export async function refuseUnlessSigned(db: Db, call: string, request: SignableRequest, headers: Headers, now: Date): Promise<void> {
  const keys = await readIssuedKeys(db);
  const publicKeyFor = (jwe: string): KeyObject | null => {
    const issued = keys.find((key) => key.jwe === jwe && Date.parse(key.expiresAt) > now.getTime());
    return issued ? publicKeyOf(issued.publicKey) : null;
  };
  const refusal = verifyEbaySignature(request, headers, publicKeyFor);
  if (!refusal) return;
  throw new MarketplaceError(
    call,
    refusal.status,
    [{ errorId: refusal.errorId, domain: "ACCESS", category: "REQUEST", message: refusal.message }],
    `The sandbox marketplace refused ${call}: ${refusal.message}`,
  );
}

/** The issue_refund request for a refund, as the shop sends it to eBay. */
export function issueRefundRequest(refund: MarketplaceRefundRequest): SignableRequest {
  return { method: "POST", url: `${sandboxApi}/sell/fulfillment/v1/order/${encodeURIComponent(refund.orderId)}/issue_refund`, body: JSON.stringify(refundRequest(refund)) };
}

/** The getTransactions request for one order, as the shop sends it to eBay. */
export function transactionsRequest(orderId: string): SignableRequest {
  return { method: "GET", url: `${sandboxApiz}${financesBase}/transaction?${orderTransactionsQuery(orderId)}`, body: null };
}

const ebayAmountIn = z.object({ value: z.string(), currency: z.string() });
const refundBody = z.object({
  reasonForRefund: z.string().min(1),
  comment: z.string().max(100).optional(),
  orderLevelRefundAmount: ebayAmountIn.optional(),
  refundItems: z.array(z.object({ lineItemId: z.string(), refundAmount: ebayAmountIn })).optional(),
});

/**
 * The sandbox's issue_refund (POST /sell/fulfillment/v1/order/{orderId}/issue_refund), signed or refused: a refund of
 * the order or of lines, at most what is left; paid at once (eBay's are PENDING for a while). As on eBay, a refund
 * of lines is listed under its lines only, a refund of the order in the payment summary.
 */
export async function sandboxIssueRefund(db: Db, request: SignableRequest, headers: Headers, now: Date = new Date()): Promise<MarketplaceRefund> {
  await refuseUnlessSigned(db, "refundOrder", request, headers, now);
  const orderId = decodeURIComponent(/\/order\/([^/]+)\/issue_refund$/.exec(new URL(request.url).pathname)?.[1] ?? "");
  const parsed = refundBody.safeParse(JSON.parse(request.body ?? "null"));
  if (!parsed.success) throw marketplaceError("refundOrder", refusals.invalid("reasonForRefund", "A refund names its reason and its amount."));
  const body = parsed.data;
  const lines = body.refundItems?.map((line) => ({ lineItemId: line.lineItemId, amount: new Decimal(line.refundAmount.value) })) ?? null;
  const amount = lines ? lines.reduce((sum, line) => sum.plus(line.amount), new Decimal(0)) : new Decimal(body.orderLevelRefundAmount?.value ?? 0);
  if (!amount.isPositive() || amount.isZero()) throw marketplaceError("refundOrder", refusals.invalid("orderLevelRefundAmount", "A refund is more than 0."));
  const refundId = newRefundId();
  await changeOrder(db, "refundOrder", orderId, (order, at) => {
    const refunded = toOrderRefunds(order).reduce((sum, earlier) => sum.plus(earlier.amount), new Decimal(0));
    const left = new Decimal(order.pricingSummary.total.value).minus(refunded);
    if (amount.greaterThan(left)) throw marketplaceError("refundOrder", refusals.refundTooLarge(left));
    for (const line of lines ?? []) {
      if (!order.lineItems.some((item) => item.lineItemId === line.lineItemId)) throw marketplaceError("refundOrder", refusals.lineNotInOrder(line.lineItemId));
    }
    const refundDate = at.toISOString();
    const paid = { orderPaymentStatus: amount.equals(left) ? ("FULLY_REFUNDED" as const) : ("PARTIALLY_REFUNDED" as const) };
    if (lines) {
      const lineItems = order.lineItems.map((item) => {
        const lineRefund = lines.find((line) => line.lineItemId === item.lineItemId);
        return lineRefund ? { ...item, refunds: [...(item.refunds ?? []), { refundId, amount: ebayAmount(lineRefund.amount), refundDate }] } : item;
      });
      return { ...order, ...paid, lineItems };
    }
    const entry = { refundId, refundStatus: "REFUNDED" as const, amount: ebayAmount(amount), refundDate, ...(body.comment ? { refundReferenceId: body.comment } : {}) };
    return { ...order, ...paid, paymentSummary: { ...order.paymentSummary, refunds: [...order.paymentSummary.refunds, entry] } };
  });
  return { refundId, status: "REFUNDED" };
}

/** The sandbox's final value fee: a share of what the buyer paid, delivery included, and a fixed amount per order. */
export const sandboxFinalValueFeeRate = new Decimal("0.11");
export const sandboxFixedFeePerOrder = new Decimal("0.35");

/**
 * The sandbox's getTransactions (GET /sell/finances/v1/transaction?filter=orderId:{...}), signed or refused: the
 * order's SALE transaction in eBay's shape, with the fees eBay withholds (final value fee on each line's share of the
 * total, the fixed fee per order), once the buyer has paid; none for an order it does not know.
 */
export async function sandboxGetTransactions(db: Db, request: SignableRequest, headers: Headers, now: Date = new Date()): Promise<{ transactions: EbayTransaction[]; total: number }> {
  await refuseUnlessSigned(db, "getTransactions", request, headers, now);
  const filter = new URL(request.url).searchParams.get("filter") ?? "";
  const orderId = /^orderId:\{([^}]+)\}$/.exec(filter)?.[1];
  if (!orderId) throw marketplaceError("getTransactions", refusals.invalid("filter", "Filter transactions by orderId:{...}."));
  const [row] = await db.select({ record: sandboxMarketplaceOrder.record }).from(sandboxMarketplaceOrder).where(eq(sandboxMarketplaceOrder.orderId, orderId));
  if (!row) return { transactions: [], total: 0 };
  const order = asOrderRecord(row.record);
  const total = new Decimal(order.pricingSummary.total.value);
  const delivery = new Decimal(order.pricingSummary.deliveryCost.value);
  const lineItems = order.lineItems.map((line, index) => {
    const share = new Decimal(line.lineItemCost.value).plus(index === 0 ? delivery : 0);
    const fees = [{ feeType: "FINAL_VALUE_FEE", amount: ebayAmount(share.times(sandboxFinalValueFeeRate).toDecimalPlaces(2)) }];
    if (index === 0) fees.push({ feeType: "FINAL_VALUE_FEE_FIXED_PER_ORDER", amount: ebayAmount(sandboxFixedFeePerOrder) });
    return { lineItemId: line.lineItemId, marketplaceFees: fees };
  });
  const totalFee = lineItems.flatMap((line) => line.marketplaceFees).reduce((sum, fee) => sum.plus(fee.amount.value), new Decimal(0));
  const sale: EbayTransaction = {
    transactionId: `SALE-${orderId}`,
    orderId,
    transactionType: "SALE",
    bookingEntry: "CREDIT",
    amount: ebayAmount(total.minus(totalFee)),
    totalFeeAmount: ebayAmount(totalFee),
    orderLineItems: lineItems,
  };
  return { transactions: [sale], total: 1 };
}
