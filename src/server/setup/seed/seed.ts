import "server-only";
import { availableParallelism } from "node:os";
import { Decimal } from "decimal.js";
import { count, getTableName, sql, type InferInsertModel } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { RestockStatus } from "@/lib/enums";
import { buildSearchText } from "@/server/catalog/search-text";
import type { Db } from "@/server/db/client";
import * as schema from "@/server/db/schema";
import { productImageKey, type StoragePort } from "@/server/integrations/storage/port";
import { bulkInsert, insertInChunks } from "@/server/db/bulk-insert";
import { backfillCostLayers } from "@/server/margins/cost-layers-backfill";
import { recordMissingSalesShares } from "@/server/orders/sales-rollup";
import { productTemplateRows, seedCatalogueTree } from "./catalogue-tree";
import { seedDemoUsers } from "./demo-users";
import { renderProductImage } from "./images";
import { writeOrderHistory } from "./order-history";
import { demoProduct, planDemoOrders } from "./order-plan";
import { placeDemoOrders } from "./orders";
import { generateProduct, type ProductDraft } from "./products";
import { DEMO_EUR_TO_PHP, discounts, regions } from "./reference-data";
import { seedShopSettings } from "./shop-settings";
import { pendingBoxes, stockLedger } from "./stock-ledger";

/**
 * The demo catalogue: categories, brands (`catalogue-tree.ts`), about 300 products with descriptions, pictures and a
 * stock ledger that adds up (`stock-ledger.ts`), shipping settings and discounts (`shop-settings.ts`), an admin and a
 * customer (`demo-users.ts`), and six months of orders (`orders.ts`). The same seed gives the same shop on every run;
 * only the dates move with today.
 */

export type SeedOptions = {
  /** How many products; 300 by default. Large numbers are for benchmarks. */
  products?: number;
  log?: (line: string) => void;
  /** Products beyond this many get no picture (the storefront shows its placeholder); 300 by default. */
  images?: number;
  /**
   * An order history of this many orders over the last three years, written in bulk, for benchmarks; none by
   * default. The demo's own six months of orders come either way.
   */
  orders?: number;
  /** "Today" for all relative dates. */
  now?: Date;
  /** The shop's address, for the link in the banner text. */
  serverUrl?: string;
  seed?: number;
};

export type SeedSummary = {
  products: number;
  productsInStock: number;
  categories: number;
  manufacturers: number;
  countries: number;
  regions: number;
  discounts: number;
  boxes: number;
  purchaseRecords: number;
  stockRecords: number;
  /** Orders in all: the bulk history and the demo's own. */
  orders: number;
  images: number;
  imagesSkipped: number;
  users: number;
  durationMs: number;
};

/**
 * What a seed without options makes. The demo's own orders and pending boxes take the first `products` of these,
 * whatever the catalogue's size.
 */
const seedDefaults = { products: 300, images: 300, seed: 2004 };
/** Products generated and written per round; bounds memory in the 100 000-product benchmark. */
const PRODUCT_BATCH = 4000;
// Any fixed number; it serialises seeders (two app instances starting on an empty database).
const SEED_LOCK = 80_412_005;

/**
 * Replaces the catalogue and demo data (products, stock, orders, shipping settings, discounts, logbook) with a fresh
 * demo shop, in one transaction. Users other than the two demo users are kept.
 */
export async function seedDatabase(db: Db, storage: StoragePort, options: SeedOptions = {}): Promise<SeedSummary> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    return seedInTransaction(tx, storage, options);
  });
}

/**
 * Seeds the demo shop only when there are no products yet; returns null when there was nothing to do. Safe when
 * several processes start on the same empty database: they queue on a lock and the later ones find the products.
 */
export async function seedIfEmpty(db: Db, storage: StoragePort, options: SeedOptions = {}): Promise<SeedSummary | null> {
  if (await hasProducts(db)) return null;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    if (await hasProducts(tx)) return null;
    return seedInTransaction(tx, storage, options);
  });
}

async function hasProducts(db: Db): Promise<boolean> {
  const rows = await db.select({ id: schema.product.id }).from(schema.product).limit(1);
  return rows.length > 0;
}

// Everything that references a product, an order or a shipping setting. CASCADE also empties tables that other
// parts of the shop add later and that hang off these (jobs of an order, say).
const demoTables: PgTable[] = [
  schema.stockRecord, schema.purchaseRecord, schema.inventoryCorrection, schema.box,
  schema.refund, schema.paymentDetail, schema.orderItem, schema.orderDetail, schema.orderAddress, schema.order,
  schema.cartItem, schema.productRestockManager, schema.productDescription, schema.product, schema.productTemplate,
  schema.productSelectOptions, schema.productCategory, schema.productManufacturer,
  schema.region, schema.country, schema.shippingSurcharge, schema.shippingCalendar,
  schema.configParams, schema.logbookReadByUser, schema.logbook, schema.adminNotification,
  schema.orderSalesShare, schema.salesDay, schema.salesDayCategory, schema.salesMonthProduct, schema.salesPeriodProduct,
  schema.stockHolding, schema.stockHoldingChange,
];

async function wipeDemoData(tx: Db): Promise<void> {
  const names = demoTables.map((table) => `"${getTableName(table)}"`).join(", ");
  await tx.execute(sql.raw(`truncate table ${names} restart identity cascade`));
  // Discounts are referenced by users, who stay; unlink them rather than truncate through to the user table.
  await tx.update(schema.user).set({ discountId: null }).where(sql`${schema.user.discountId} is not null`);
  await tx.delete(schema.discount).where(sql`true`);
}

/** Moves each identity past the ids the seed wrote itself, so the shop's own inserts continue after them. */
async function syncIdentities(tx: Db, tables: PgTable[]): Promise<void> {
  const statements = tables.map((table) => {
    const name = getTableName(table);
    return `select setval(pg_get_serial_sequence('"${name}"', 'id'), coalesce((select max("id") from "${name}"), 0) + 1, false)`;
  });
  await tx.execute(sql.raw(statements.join(" union all ")));
}

type Ids = {
  category: Map<string, number>;
  manufacturer: Map<string, number>;
  country: Map<string, number>;
  discount: Map<string, number>;
};

async function seedInTransaction(tx: Db, storage: StoragePort, options: SeedOptions): Promise<SeedSummary> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const productCount = Math.max(0, Math.floor(options.products ?? seedDefaults.products));
  const imageLimit = Math.min(productCount, Math.max(0, options.images ?? seedDefaults.images));
  const now = options.now ?? new Date();
  const seed = options.seed ?? seedDefaults.seed;
  const rate = new Decimal(DEMO_EUR_TO_PHP);

  await wipeDemoData(tx);
  log("Cleared the catalogue, stock, orders, shipping settings, discounts and logbook");

  const settings = await seedShopSettings(tx, { now, productCount, serverUrl: options.serverUrl });
  const tree = await seedCatalogueTree(tx, settings.countryIds);
  const { categoryNames } = tree;
  const ids: Ids = { category: tree.categoryIds, manufacturer: tree.manufacturerIds, country: settings.countryIds, discount: settings.discountIds };
  const { adminId, customerId } = await seedDemoUsers(tx, { now, loyalDiscountId: ids.discount.get("user-loyal") ?? null, log });

  // The demo's orders are planned before the products are written: the pieces they sell are bought with the rest.
  const plan = planDemoOrders(
    Array.from({ length: Math.min(productCount, seedDefaults.products) }, (_, index) => demoProduct(generateProduct(index, { seed, now }))),
    { now, seed },
  );

  // Products, their descriptions and their stock ledger, a batch at a time.
  const totals = { inStock: 0, boxes: 0, purchaseRecords: 0, stockRecords: 0 };
  const imageDrafts: ProductDraft[] = [];
  const outOfStock: number[] = [];
  let images: Promise<number> = Promise.resolve(0);
  // Kept until the rows are written; a failure is raised then, not as an unhandled rejection meanwhile.
  let imageFailure: unknown = null;
  for (let start = 0; start < productCount; start += PRODUCT_BATCH) {
    const drafts: ProductDraft[] = [];
    for (let index = start; index < Math.min(productCount, start + PRODUCT_BATCH); index++) drafts.push(generateProduct(index, { seed, now }));

    if (start < imageLimit) {
      imageDrafts.push(...drafts.slice(0, imageLimit - start));
      // Once all products that get a picture are known, the pictures render on sharp's threads while the database
      // takes the rows.
      if (imageDrafts.length === imageLimit) {
        images = storeImages(storage, imageDrafts).catch((error: unknown) => {
          imageFailure = error;
          return 0;
        });
      }
    }

    await bulkInsert(tx, schema.product, drafts.map((draft) => {
      const id = draft.index + 1;
      if (draft.stock === 0 && outOfStock.length < 12) outOfStock.push(id);
      return {
        id, name: draft.name, price: draft.price, shippingFee: draft.shippingFee, stock: draft.stock + (plan.sold.get(id) ?? 0),
        ebayStatus: draft.ebayStatus, wsStatus: draft.wsStatus, isBulk: draft.isBulk,
        categoryId: ids.category.get(draft.categoryKey) ?? null,
        discountId: productDiscount(draft, ids.discount),
        manufacturerId: ids.manufacturer.get(draft.manufacturer) ?? null,
        countryId: ids.country.get(draft.countryCode) ?? null,
        searchText: buildSearchText({
          name: draft.name, manufacturer: draft.manufacturer, category: categoryNames.get(draft.categoryKey) ?? null,
          caliber: draft.description.caliber, itemType: draft.description.itemType, description: draft.description,
        }),
        createdAt: draft.createdAt, updatedAt: draft.createdAt,
      };
    }));
    await bulkInsert(tx, schema.productDescription, drafts.map((draft) => ({
      productId: draft.index + 1, ...draft.description, createdAt: draft.createdAt, updatedAt: draft.createdAt,
    })));

    const ledger = stockLedger(drafts, totals, rate, plan);
    await bulkInsert(tx, schema.box, ledger.boxes);
    await bulkInsert(tx, schema.purchaseRecord, ledger.purchaseRecords);
    await bulkInsert(tx, schema.stockRecord, ledger.stockRecords);
    if (productCount > PRODUCT_BATCH) log(`Products: ${Math.min(productCount, start + PRODUCT_BATCH)} of ${productCount}`);
  }
  log(`Products: ${productCount}, ${totals.inStock} in stock, booked through ${totals.purchaseRecords} purchase records in ${totals.boxes} boxes`);

  const pending = pendingBoxes(productCount, Math.min(productCount, seedDefaults.products), totals, rate, now, seed);
  await insertInChunks(tx, schema.box, pending.boxes);
  await insertInChunks(tx, schema.purchaseRecord, pending.purchaseRecords);

  const restockStatuses: RestockStatus[] = ["PENDING", "PENDING", "PENDING", "APPROVED", "APPROVED", "REJECTED", "REJECTED"];
  await insertInChunks(tx, schema.productRestockManager, outOfStock.slice(0, restockStatuses.length).map((productId, i) => ({
    productId, status: restockStatuses[i] ?? "PENDING",
  })));
  await insertInChunks(tx, schema.productTemplate, productTemplateRows(ids));
  await seedLogbook(tx, { adminId, now, productCount, outOfStock: outOfStock.length, boxes: totals.boxes });

  await syncIdentities(tx, [
    schema.country, schema.discount, schema.productCategory, schema.productManufacturer, schema.product, schema.box, schema.purchaseRecord,
  ]);

  const historyOrders = productCount > 0 ? Math.max(0, Math.floor(options.orders ?? 0)) : 0;
  await writeOrderHistory(tx, { count: historyOrders, productCount, now, customerId, rate, log });
  // The ledger so far was written in bulk, beside `bookStock`: its lots and costs are recorded as an older shop's are
  // when it migrates; the demo's orders then take their pieces through `bookStock`, which records them as it goes.
  const layers = await backfillCostLayers(tx);
  if (layers) log(`Cost layers: ${layers.lots} lots, ${layers.costRows} costed takes`);
  const orders = await placeDemoOrders(tx, plan, { now, customerId, adminId, orderNumberBase: historyOrders });
  await syncIdentities(tx, [schema.order, schema.orderItem]);
  const statuses = Object.entries(orders.byStatus).map(([status, n]) => `${n} ${status}`).join(", ");
  log(`Orders: ${orders.orders} over the last six months (${statuses}; ${orders.byShop.EBAY} from eBay)${historyOrders ? ` after a history of ${historyOrders}` : ""}`);

  // The orders above were written in bulk, beside the services that keep the sales rollups: added up here, after the
  // cost of what they sold is recorded (stock_record_cost), which the rollups read.
  const rolledUp = await recordMissingSalesShares(tx);
  log(`Sales rollups: the shares of ${rolledUp.orders} sales added up`);

  const stored = await images;
  if (imageFailure) throw imageFailure;
  if (productCount > imageLimit) {
    log(`Images: drew ${stored}; skipped ${productCount - imageLimit} beyond the first ${imageLimit} (the storefront shows its placeholder)`);
  } else {
    log(`Images: drew ${stored} at products/{id}/1.webp`);
  }

  const [userCount] = await tx.select({ value: count() }).from(schema.user);
  return {
    products: productCount,
    productsInStock: totals.inStock,
    categories: tree.categories,
    manufacturers: tree.manufacturers,
    countries: settings.countries,
    regions: regions.length,
    discounts: discounts.length,
    boxes: totals.boxes,
    purchaseRecords: totals.purchaseRecords,
    stockRecords: totals.stockRecords,
    orders: historyOrders + orders.orders,
    images: stored,
    imagesSkipped: productCount - imageLimit,
    users: userCount?.value ?? 0,
    durationMs: Math.round(performance.now() - started),
  };
}

/** A few products carry a product discount: mostly live ones, some expired, not yet started or switched off. */
function productDiscount(draft: ProductDraft, discountIds: Map<string, number>): number | null {
  const roll = draft.discountRoll;
  let key: string | null = null;
  if (roll < 0.05) key = "product-percent";
  // A fixed €5 off only where it leaves a sensible price.
  else if (roll < 0.08) key = draft.price.greaterThanOrEqualTo(25) ? "product-fixed" : "product-percent";
  else if (roll < 0.09) key = "product-expired";
  else if (roll < 0.095) key = "product-future";
  else if (roll < 0.1) key = "product-inactive";
  return key ? (discountIds.get(key) ?? null) : null;
}

async function seedLogbook(tx: Db, facts: { adminId: string; now: Date; productCount: number; outOfStock: number; boxes: number }): Promise<void> {
  const at = (hoursAgo: number) => new Date(facts.now.getTime() - hoursAgo * 3_600_000);
  const entries: InferInsertModel<typeof schema.logbook>[] = [
    { eventType: "DEPLOY", logLevel: "INFO", description: "Demo catalogue loaded", newState: { products: facts.productCount }, createdAt: at(0) },
    { eventType: "HEALTH_CHECK", logLevel: "INFO", description: "Database and storage reachable", createdAt: at(1) },
    { eventType: "STOCK_CHANGE", logLevel: "INFO", entityType: "BOX", entityId: "1", description: "Box 1 exploded: purchases booked into stock", previousState: { status: "SHIPPED" }, newState: { status: "EXPLODED" }, userId: facts.adminId, createdAt: at(30) },
    { eventType: "PRODUCT", logLevel: "INFO", entityType: "PRODUCT", entityId: "1", description: "Product created", newState: { id: 1 }, userId: facts.adminId, createdAt: at(28) },
    { eventType: "EBAY_API", logLevel: "WARNING", description: "Marketplace access token expired; a new one was requested with the refresh token", createdAt: at(6) },
    { eventType: "EMAIL", logLevel: "WARNING", description: "Order confirmation e-mail delayed: the mail server timed out, sent on the second attempt", createdAt: at(12) },
    { eventType: "WEBHOOK", logLevel: "ERROR", description: "Payment webhook rejected: signature did not match", errorData: { reason: "signature mismatch", provider: "sandbox" }, createdAt: at(3) },
    { eventType: "ADDRESS", logLevel: "INFO", entityType: "ADDRESS_BOOK", description: "Customer added an address in the United States", createdAt: at(50) },
  ];
  await insertInChunks(tx, schema.logbook, entries.map((entry) => ({ ...entry, updatedAt: entry.createdAt })));
  await insertInChunks(tx, schema.adminNotification, [
    { type: "DEPLOYMENT", severity: "INFO", message: "New version deployed with the demo catalogue", userIdRead: facts.adminId, createdAt: at(0) },
    { type: "OTHER", severity: "WARNING", message: `${facts.outOfStock} products are sold out; requests wait in the restock manager`, createdAt: at(2) },
    { type: "EBAY_ORDER", severity: "INFO", message: "Marketplace sandbox connected", createdAt: at(5) },
    { type: "ORDER", severity: "INFO", message: "Shipping calendar filled for the next eight weeks", createdAt: at(8) },
    { type: "REFUND", severity: "ERROR", message: "A refund could not be sent to the payment provider; retry it from the order page", createdAt: at(20) },
  ]);
}

/** Draws and stores the pictures, a few at a time so that sharp's threads stay busy without queueing hundreds. */
async function storeImages(storage: StoragePort, drafts: ProductDraft[]): Promise<number> {
  let next = 0;
  let stored = 0;
  const worker = async () => {
    for (let i = next++; i < drafts.length; i = next++) {
      const draft = drafts[i];
      if (!draft) continue;
      const image = await renderProductImage({ name: draft.name, picture: draft.picture });
      await storage.put(productImageKey(draft.index + 1), image, "image/webp");
      stored++;
    }
  };
  // sharp runs on libuv's pool of four threads; more workers than that only queue.
  await Promise.all(Array.from({ length: Math.max(4, availableParallelism()) }, worker));
  return stored;
}
