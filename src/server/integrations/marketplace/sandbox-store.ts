import "server-only";
import { Decimal } from "decimal.js";
import { and, count, desc, eq, ilike, isNotNull, sql } from "drizzle-orm";
import { z } from "zod";
import { env } from "@/env";
import type { Db } from "@/server/db/client";
import { sandboxMarketplaceItem, sandboxMarketplaceOffer, sandboxMarketplaceOrder } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { logger } from "@/server/logger";
import type { MarketplaceOrder } from "./port";
import {
  asItemRecord,
  asOfferRecord,
  asOrderRecord,
  marketplaceOrder,
  newLineItemId,
  newOrderId,
  orderNotificationBody,
  signatureHeader,
  storable,
  withItemQuantity,
  type OrderRecord,
} from "./sandbox-records";
import { ebayAmount } from "./ebay-records";

/**
 * The buyer's side of the sandbox marketplace (its pages under /sandbox/ebay): finding a listing, and buying it, which
 * makes an order in eBay's shape, takes the pieces off the listing and tells the shop as eBay's notification would.
 */

/** How many listings the listings page shows at once; the search box finds the rest. */
export const listingsPerPage = 48;

export type SandboxListingSummary = {
  listingId: string;
  title: string;
  price: Decimal;
  quantity: number;
  imageUrl: string | null;
};

export type SandboxListing = SandboxListingSummary & {
  ended: boolean;
  condition: string;
  conditionDescription: string | null;
  /** The listing's description as plain text (eBay shows the offer's HTML; the stand-in shows no one's HTML). */
  description: string;
  aspects: Record<string, string[]>;
  imageUrls: string[];
  soldQuantity: number;
};

/** What a buyer can buy now: the smaller of the offer's and the item's quantity. */
const available = sql<number>`least(${sandboxMarketplaceOffer.availableQuantity}, ${sandboxMarketplaceItem.quantity})`;
const title = sql<string>`${sandboxMarketplaceItem.record}->'product'->>'title'`;

/** The live listings (out of stock ones too, as eBay keeps them), the most recently listed or revised first. */
export async function listSandboxListings(db: Db, options: { search?: string } = {}): Promise<{ listings: SandboxListingSummary[]; total: number }> {
  const search = options.search?.trim();
  const where = and(
    eq(sandboxMarketplaceOffer.status, "PUBLISHED"),
    isNotNull(sandboxMarketplaceOffer.listingId),
    search ? ilike(title, `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
  );
  const countRows = () => db.select({ value: count() }).from(sandboxMarketplaceOffer).innerJoin(sandboxMarketplaceItem, eq(sandboxMarketplaceItem.sku, sandboxMarketplaceOffer.sku));
  const [rows, [total]] = await Promise.all([
    db
      .select({
        listingId: sql<string>`${sandboxMarketplaceOffer.listingId}`,
        title,
        price: sandboxMarketplaceOffer.price,
        quantity: available,
        imageUrl: sql<string | null>`${sandboxMarketplaceItem.record}->'product'->'imageUrls'->>0`,
      })
      .from(sandboxMarketplaceOffer)
      .innerJoin(sandboxMarketplaceItem, eq(sandboxMarketplaceItem.sku, sandboxMarketplaceOffer.sku))
      .where(where)
      .orderBy(desc(sandboxMarketplaceOffer.updatedAt), desc(sandboxMarketplaceOffer.listingId))
      .limit(listingsPerPage),
    countRows().where(where),
  ]);
  return { listings: rows.map((row) => ({ ...row, quantity: Number(row.quantity) })), total: total?.value ?? 0 };
}

/** A listing by its id, live or ended, or null when there is none (never listed, or listed again under a new id). */
export async function getSandboxListing(db: Db, listingId: string): Promise<SandboxListing | null> {
  if (!/^\d{12}$/.test(listingId)) return null;
  const [row] = await db
    .select({ offer: sandboxMarketplaceOffer, item: sandboxMarketplaceItem })
    .from(sandboxMarketplaceOffer)
    .innerJoin(sandboxMarketplaceItem, eq(sandboxMarketplaceItem.sku, sandboxMarketplaceOffer.sku))
    .where(eq(sandboxMarketplaceOffer.listingId, listingId));
  if (!row) return null;
  const item = asItemRecord(row.item.record);
  const offer = asOfferRecord(row.offer.record);
  return {
    listingId,
    title: item.product.title,
    price: row.offer.price,
    quantity: Math.min(row.offer.availableQuantity, row.item.quantity),
    imageUrl: item.product.imageUrls[0] ?? null,
    ended: row.offer.status !== "PUBLISHED",
    condition: item.condition,
    conditionDescription: item.conditionDescription ?? null,
    description: plainText(offer.listingDescription || item.product.description),
    aspects: item.product.aspects,
    imageUrls: item.product.imageUrls,
    soldQuantity: offer.listing?.soldQuantity ?? 0,
  };
}

/** An order made on the buyer pages, for its confirmation; null for an id the sandbox does not know. */
export async function getSandboxOrder(db: Db, orderId: string): Promise<(MarketplaceOrder & { listingIds: string[] }) | null> {
  const [row] = await db.select({ record: sandboxMarketplaceOrder.record }).from(sandboxMarketplaceOrder).where(eq(sandboxMarketplaceOrder.orderId, orderId));
  if (!row) return null;
  const record = asOrderRecord(row.record);
  return { ...marketplaceOrder(record), listingIds: record.lineItems.map((line) => line.legacyItemId) };
}

export const sandboxPurchaseInput = z.object({
  listingId: z.string().regex(/^\d{12}$/, "That is not a listing number"),
  quantity: z.coerce.number().int("Buy whole pieces").min(1, "Buy at least one").max(99, "Buy at most 99 at once"),
  buyer: z.object({
    fullName: z.string().trim().min(1, "Enter your name").max(100),
    addressLine1: z.string().trim().min(1, "Enter the street and house number").max(100),
    postalCode: z.string().trim().min(1, "Enter the postal code").max(20),
    city: z.string().trim().min(1, "Enter the city").max(60),
    countryCode: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2}$/, "Enter the country as two letters, like NL")
      .transform((code) => code.toUpperCase()),
    email: z.string().trim().toLowerCase().pipe(z.email("Enter a valid e-mail address")),
  }),
});
export type SandboxPurchase = z.input<typeof sandboxPurchaseInput>;

/**
 * A buyer's "Buy it now": in one transaction, with the offer locked so that two buyers of the last piece are taken one
 * after the other, the pieces come off the offer and its item and the order is made, paid, as eBay reports it.
 * A listing that has ended, or has fewer pieces than asked (the web shop may have sold them meanwhile), is refused.
 * Once the sale is committed the shop is notified; a notification that does not arrive undoes nothing, the shop's
 * poll of `getOrders` finds the order anyway.
 */
export async function buySandboxListing(db: Db, raw: SandboxPurchase, options: { shopUrl: string }): Promise<{ orderId: string; notified: boolean }> {
  const purchase = sandboxPurchaseInput.parse(raw);
  const order = await db.transaction(async (tx) => {
    const [offer] = await tx.select().from(sandboxMarketplaceOffer).where(eq(sandboxMarketplaceOffer.listingId, purchase.listingId)).for("update");
    if (!offer) throw new AppError("NOT_FOUND", `There is no listing ${purchase.listingId}`);
    if (offer.status !== "PUBLISHED") throw new AppError("CONFLICT", "This listing has ended");
    const [item] = await tx.select().from(sandboxMarketplaceItem).where(eq(sandboxMarketplaceItem.sku, offer.sku)).for("update");
    const left = Math.min(offer.availableQuantity, item?.quantity ?? 0);
    if (!item || left === 0) throw new AppError("CONFLICT", "Out of stock: this piece has just been sold");
    if (left < purchase.quantity) throw new AppError("CONFLICT", `Only ${left} left; buy ${left} or fewer`);

    const itemRecord = asItemRecord(item.record);
    const offerRecord = asOfferRecord(offer.record);
    await tx
      .update(sandboxMarketplaceOffer)
      .set({
        availableQuantity: offer.availableQuantity - purchase.quantity,
        record: storable({
          ...offerRecord,
          availableQuantity: offer.availableQuantity - purchase.quantity,
          ...(offerRecord.listing ? { listing: { ...offerRecord.listing, soldQuantity: offerRecord.listing.soldQuantity + purchase.quantity } } : {}),
        }),
      })
      .where(eq(sandboxMarketplaceOffer.offerId, offer.offerId));
    await tx
      .update(sandboxMarketplaceItem)
      .set({ quantity: item.quantity - purchase.quantity, record: storable(withItemQuantity(itemRecord, item.quantity - purchase.quantity)) })
      .where(eq(sandboxMarketplaceItem.sku, item.sku));

    const now = new Date();
    const record = orderRecord({ now, listingId: purchase.listingId, sku: offer.sku, title: itemRecord.product.title, price: offer.price, quantity: purchase.quantity, buyer: purchase.buyer });
    await tx.insert(sandboxMarketplaceOrder).values({ orderId: record.orderId, record: storable(record), lastModifiedAt: now });
    return record;
  });
  const notified = await notifyShop(options.shopUrl, order.orderId, new Date(order.creationDate));
  return { orderId: order.orderId, notified };
}

function orderRecord(sale: {
  now: Date;
  listingId: string;
  sku: string;
  title: string;
  price: Decimal;
  quantity: number;
  buyer: z.output<typeof sandboxPurchaseInput>["buyer"];
}): OrderRecord {
  const { buyer, now } = sale;
  const cost = ebayAmount(sale.price.times(sale.quantity));
  // Delivery is free on the sandbox's listings: the shop's own shipping rates are not the marketplace's business.
  const deliveryCost = ebayAmount(new Decimal(0));
  return {
    orderId: newOrderId(),
    creationDate: now.toISOString(),
    lastModifiedDate: now.toISOString(),
    orderFulfillmentStatus: "NOT_STARTED",
    orderPaymentStatus: "PAID",
    buyer: { username: usernameOf(buyer.email), buyerRegistrationAddress: { fullName: buyer.fullName, email: buyer.email } },
    pricingSummary: { priceSubtotal: cost, deliveryCost, total: cost },
    cancelStatus: { cancelState: "NONE_REQUESTED", cancelRequests: [] },
    paymentSummary: { totalDueSeller: cost, refunds: [] },
    fulfillmentStartInstructions: [
      {
        fulfillmentInstructionsType: "SHIP_TO",
        shippingStep: {
          shipTo: {
            fullName: buyer.fullName,
            contactAddress: { addressLine1: buyer.addressLine1, city: buyer.city, postalCode: buyer.postalCode, countryCode: buyer.countryCode },
            email: buyer.email,
          },
        },
      },
    ],
    fulfillmentHrefs: [],
    shippingFulfillments: [],
    lineItems: [
      {
        lineItemId: newLineItemId(),
        legacyItemId: sale.listingId,
        sku: sale.sku,
        title: sale.title,
        quantity: sale.quantity,
        lineItemCost: cost,
        total: cost,
        lineItemFulfillmentStatus: "NOT_STARTED",
      },
    ],
  };
}

/** An eBay-like user name from the buyer's e-mail address: its local part in lower case letters, digits and dots. */
export function usernameOf(email: string): string {
  const local = email.split("@")[0]!.toLowerCase().replace(/[^a-z0-9._-]/g, "").slice(0, 30);
  return local.length >= 2 ? local : `buyer${local}`;
}

/** eBay's order notification to the shop's endpoint, signed; whether the shop took it. */
async function notifyShop(shopUrl: string, orderId: string, eventDate: Date): Promise<boolean> {
  const url = `${shopUrl.replace(/\/+$/, "")}/api/webhooks/ebay`;
  const body = orderNotificationBody(orderId, eventDate, new Date());
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-ebay-signature": signatureHeader(body, env.WEBHOOK_SECRET) },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    if (response.ok) return true;
    logger.warn({ orderId, url, status: response.status }, "sandbox marketplace: the shop refused the order notification; its poll will import the order");
  } catch (error) {
    logger.warn({ orderId, url, err: error }, "sandbox marketplace: the shop's notification endpoint did not answer; its poll will import the order");
  }
  return false;
}

/** The text of an HTML description: tags out, paragraphs and line breaks kept as new lines, common entities read. */
function plainText(html: string): string {
  const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'", nbsp: " " };
  return html
    .replace(/<\s*(br|\/p|\/div|\/li|\/h[1-6])\s*\/?>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, name: string) => entities[name] ?? "")
    .replace(/[ \t]+/g, " ")
    .replace(/\n\s*\n+/g, "\n\n")
    .trim();
}
