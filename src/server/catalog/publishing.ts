import "server-only";
import { asc, eq, inArray } from "drizzle-orm";
import { catalogueChanged } from "@/server/cache/catalogue";
import type { Db } from "@/server/db/client";
import { product, productDescription } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { logProductChange } from "@/server/logbook/service";
import { placeholderRefusal, unfilledPlaceholders, type PlaceholderField, type PublishChannels } from "./admin-schemas";
import { descriptionTextColumns } from "./columns";

/**
 * A product's way from draft to the channels. Staff's form makes drafts (publishedAt null, on no channel: the
 * database's check `product_draft_offline` holds it); publishing puts a product on the channels staff choose and
 * records when it was first published; unpublishing takes it off both and leaves it published: it was on sale, its
 * logbook and orders say so, and publishing again puts it back. A product goes on a channel only with every
 * placeholder of its template filled in, whichever way it gets there (here, the form's channel boxes, a bulk action).
 */

/** Refuses, naming each placeholder and its field, when the product's name or description still holds any. */
export function assertPlaceholdersFilled(values: Partial<Record<PlaceholderField, string | null | undefined>>, productName?: string): void {
  const found = unfilledPlaceholders(values);
  if (found.length === 0) return;
  const refusal = placeholderRefusal(found);
  throw new AppError("PRECONDITION_FAILED", productName ? `${productName}: ${refusal}` : refusal);
}

/** The products locked in id order (the order every bulk change takes them in), with what publishing checks. */
async function lockProducts(tx: Db, productIds: readonly number[]) {
  const ids = [...new Set(productIds)].sort((a, b) => a - b);
  const rows = await tx
    .select({ id: product.id, name: product.name, wsStatus: product.wsStatus, ebayStatus: product.ebayStatus, publishedAt: product.publishedAt, ...descriptionTextColumns })
    .from(product)
    .leftJoin(productDescription, eq(productDescription.productId, product.id))
    .where(inArray(product.id, ids))
    .orderBy(asc(product.id))
    .for("update", { of: product });
  const missing = ids.filter((id) => !rows.some((row) => row.id === id));
  if (missing.length) throw new AppError("NOT_FOUND", `Product ${missing.join(", ")} does not exist.`);
  return rows;
}

const channelNames = (channels: PublishChannels) => [channels.web ? "the web shop" : null, channels.ebay ? "eBay" : null].filter(Boolean).join(" and ");

/**
 * Puts the products on the chosen channels (a channel not chosen stays as it is) and dates a draft's first
 * publication, each logged; all or none: one product with a placeholder left refuses the lot.
 */
export async function publishProducts(tx: Db, productIds: readonly number[], channels: PublishChannels, userId: string): Promise<void> {
  const rows = await lockProducts(tx, productIds);
  for (const row of rows) assertPlaceholdersFilled(row, rows.length > 1 ? `#${row.id} ${row.name}` : undefined);
  const now = new Date();
  for (const row of rows) {
    const changes = {
      ...(channels.web ? { wsStatus: "ONLINE" as const } : {}),
      ...(channels.ebay ? { ebayStatus: "ONLINE" as const } : {}),
      publishedAt: row.publishedAt ?? now,
    };
    await tx.update(product).set(changes).where(eq(product.id, row.id));
    await logProductChange(tx, row.id, {
      userId,
      previousState: { wsStatus: row.wsStatus, ebayStatus: row.ebayStatus, publishedAt: row.publishedAt },
      newState: { wsStatus: changes.wsStatus ?? row.wsStatus, ebayStatus: changes.ebayStatus ?? row.ebayStatus, publishedAt: changes.publishedAt },
      description: `Product ${row.id} ${row.publishedAt ? "put" : "published"} on ${channelNames(channels)}`,
    });
  }
  await catalogueChanged(tx, { productIds: rows.map((row) => row.id) });
}

/** Takes the products off the web shop and eBay, each logged; they stay published (see above). */
export async function unpublishProducts(tx: Db, productIds: readonly number[], userId: string): Promise<void> {
  const rows = await lockProducts(tx, productIds);
  for (const row of rows) {
    await tx.update(product).set({ wsStatus: "OFFLINE", ebayStatus: "OFFLINE" }).where(eq(product.id, row.id));
    await logProductChange(tx, row.id, {
      userId,
      previousState: { wsStatus: row.wsStatus, ebayStatus: row.ebayStatus },
      newState: { wsStatus: "OFFLINE", ebayStatus: "OFFLINE" },
      description: `Product ${row.id} taken off the web shop and eBay`,
    });
  }
  await catalogueChanged(tx, { productIds: rows.map((row) => row.id) });
}

export function publishProduct(db: Db, id: number, channels: PublishChannels, userId: string): Promise<void> {
  return db.transaction((tx) => publishProducts(tx, [id], channels, userId));
}

export function unpublishProduct(db: Db, id: number, userId: string): Promise<void> {
  return db.transaction((tx) => unpublishProducts(tx, [id], userId));
}
