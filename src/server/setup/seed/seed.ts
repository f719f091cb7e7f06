import "server-only";
import { DEMO_ADMIN_TOTP_SECRET } from "@/server/auth/demo-admin";
import { setConfirmedTotp } from "@/server/auth/second-factor";
import { availableParallelism } from "node:os";
import { Decimal } from "decimal.js";
import { count, getTableName, sql, type InferInsertModel } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { configParamKeys, type ConfigParamKey, type RestockStatus } from "@/lib/enums";
import { buildSearchText } from "@/server/catalog/search-text";
import { EXCHANGE_RATE_PARAM } from "@/server/stock/exchange-rate";
import type { Db } from "@/server/db/client";
import * as schema from "@/server/db/schema";
import { productImageKey, type StoragePort } from "@/server/integrations/storage/port";
import { EBAY_ACCESS_TOKEN_PARAM } from "@/server/integrations/marketplace/token-store";
import { bulkInsert } from "./bulk-insert";
import { categoryTree, manufacturerGroups, productTemplates, type CategoryNode } from "./catalogue-data";
import { DAY } from "./durations";
import { renderProductImage } from "./images";
import { generateProduct, selectOptionLists, type ProductDraft } from "./products";
import { writeOrderHistory } from "./order-history";
import { demoProduct, planDemoOrders, placeDemoOrders, type DemoOrderPlan } from "./orders";
import { createRandom } from "./random";
import {
  countries,
  customerAddresses,
  DEMO_EUR_TO_PHP,
  demoUsers,
  discounts,
  localDate,
  regions,
  shippingDays,
  surchargeBands,
} from "./reference-data";

/**
 * The demo catalogue: categories, brands, about 300 products with descriptions, pictures and a stock ledger that
 * adds up, shipping settings, discounts, an admin and a customer, and six months of orders (`orders.ts`). The same
 * seed gives the same shop on every run; only the dates move with today.
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
/** Purchases travel in boxes of about this many records. */
const RECORDS_PER_BOX = 40;
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

// PostgreSQL takes at most 65 535 parameters per statement.
const MAX_PARAMETERS = 60_000;

async function insertInChunks<T extends PgTable>(tx: Db, table: T, rows: InferInsertModel<T>[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Math.max(1, Object.keys(rows[0] as object).length);
  const size = Math.max(1, Math.min(5000, Math.floor(MAX_PARAMETERS / columns)));
  for (let start = 0; start < rows.length; start += size) {
    await tx.insert(table).values(rows.slice(start, start + size));
  }
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

  const ids: Ids = { category: new Map(), manufacturer: new Map(), country: new Map(), discount: new Map() };
  const categoryNames = new Map<string, string>();

  // Shipping settings.
  const countryRows = countries.map((c, i) => {
    ids.country.set(c.code, i + 1);
    return {
      id: i + 1, code: c.code, name: c.name, phoneCode: c.phoneCode, untrackedCost: new Decimal(c.untrackedCost), tntCost: new Decimal(c.tntCost),
      untrackedEtaDays: c.untrackedEtaDays, tntEtaDays: c.tntEtaDays, maxOrderUntracked: new Decimal(c.maxOrderUntracked), active: c.active, eu: c.eu,
    };
  });
  await insertInChunks(tx, schema.country, countryRows);
  await insertInChunks(tx, schema.region, regions.map((r) => ({
    countryId: ids.country.get(r.countryCode) ?? 0, code: r.code, name: r.name, active: r.active,
    maxOrderUntracked: r.maxOrderUntracked === null ? null : new Decimal(r.maxOrderUntracked),
  })));
  await insertInChunks(tx, schema.shippingSurcharge, surchargeBands.map((band) => ({
    minPrice: new Decimal(band.minPrice), maxPrice: new Decimal(band.maxPrice), percentage: new Decimal(band.percentage),
  })));
  const calendar = shippingDays(now, 8);
  await insertInChunks(tx, schema.shippingCalendar, calendar.map((shortDate) => ({ shortDate })));

  // Discounts.
  const inDays = (days: number | null) => (days === null ? null : new Date(now.getTime() + days * DAY));
  await insertInChunks(tx, schema.discount, discounts.map((d, i) => {
    ids.discount.set(d.key, i + 1);
    return {
      id: i + 1, name: d.name, discountType: d.discountType, pricingType: d.pricingType, value: new Decimal(d.value), active: d.active,
      startsAt: inDays(d.startsInDays), expiresAt: inDays(d.expiresInDays),
    };
  }));

  // Category tree: ids are handed out depth-first so that a parent always has a lower id than its children.
  const categoryRows: InferInsertModel<typeof schema.productCategory>[] = [];
  const relatedKeys: [number, string][] = [];
  const walkCategories = (nodes: CategoryNode[], parentId: number | null) => {
    nodes.forEach((node, position) => {
      const id = categoryRows.length + 1;
      ids.category.set(node.key, id);
      categoryNames.set(node.key, node.name);
      categoryRows.push({
        id, name: node.name, isParent: Boolean(node.children?.length), parentId, orderWeight: (position + 1) * 10,
        ebayMainCategory: node.ebayMainCategory ?? null, ebayShopCategory: String(id),
      });
      if (node.relatedTo) relatedKeys.push([id, node.relatedTo]);
      if (node.children) walkCategories(node.children, id);
    });
  };
  walkCategories(categoryTree, null);
  for (const [id, key] of relatedKeys) {
    const row = categoryRows[id - 1];
    if (row) row.relatedTo = ids.category.get(key) ?? null;
  }
  await insertInChunks(tx, schema.productCategory, categoryRows);

  // Manufacturers: the first top-level entry ("Brands") holds the watch brands the navigation lists.
  const manufacturerRows: InferInsertModel<typeof schema.productManufacturer>[] = [];
  manufacturerGroups.forEach((group, groupPosition) => {
    const groupId = manufacturerRows.length + 1;
    manufacturerRows.push({ id: groupId, name: group.name, isParent: true, parentId: null, orderWeight: (groupPosition + 1) * 10 });
    group.members.forEach((name, position) => {
      const id = manufacturerRows.length + 1;
      if (!ids.manufacturer.has(name)) ids.manufacturer.set(name, id);
      manufacturerRows.push({ id, name, isParent: false, parentId: groupId, orderWeight: (position + 1) * 10, ebayShopManufacturer: name });
    });
  });
  await insertInChunks(tx, schema.productManufacturer, manufacturerRows);

  await insertInChunks(tx, schema.productSelectOptions, Object.entries(selectOptionLists).flatMap(([selectRow, options]) =>
    [...new Set(options)].map((optionText) => ({ selectRow, optionText }))));

  // Every setting the shop keeps in configParams, as a fresh shop has it.
  const settings: Record<ConfigParamKey, string> = {
    [EXCHANGE_RATE_PARAM]: DEMO_EUR_TO_PHP,
    NAVBAR_BANNER_TEXT: `New pieces from our latest box arrive every week — see them ${(options.serverUrl ?? "http://localhost:3000").replace(/\/+$/, "")}/search?sort=createdAt:desc`,
    NEXT_PRODUCT_ID: String(productCount + 1),
    CALC_START_PRODUCTID: "1",
    BULK_UPDATE_EBAY_OFFERS_CURRENT_ID: "0",
    // Filled in by the marketplace and carrier logins once they run.
    [EBAY_ACCESS_TOKEN_PARAM]: "",
    UPS_ACCESS_TOKEN: "",
  };
  await insertInChunks(tx, schema.configParams, configParamKeys.map((param) => ({ param, value: settings[param] })));

  // The demo users keep their ids across reseeds, so that a signed-in session survives.
  const [admin] = await tx.insert(schema.user)
    .values({ ...demoUsers.admin, role: "ADMIN", emailVerified: now })
    .onConflictDoUpdate({ target: schema.user.email, set: { name: demoUsers.admin.name, role: "ADMIN" } })
    .returning({ id: schema.user.id });
  const [customer] = await tx.insert(schema.user)
    .values({ ...demoUsers.customer, role: "USER", emailVerified: now, discountId: ids.discount.get("user-loyal") ?? null })
    .onConflictDoUpdate({ target: schema.user.email, set: { name: demoUsers.customer.name, role: "USER", discountId: ids.discount.get("user-loyal") ?? null } })
    .returning({ id: schema.user.id });
  await tx.insert(schema.user)
    .values({ ...demoUsers.newStaff, role: "ADMIN", emailVerified: now })
    .onConflictDoUpdate({ target: schema.user.email, set: { name: demoUsers.newStaff.name, role: "ADMIN" } });
  if (!admin || !customer) throw new Error("Could not write the demo users");
  // The demo admin's second factor is an authenticator app whose secret the README publishes, as it publishes the
  // address: a first look at the back office is not blocked, and shows how staff sign in.
  await setConfirmedTotp(tx, admin.id, DEMO_ADMIN_TOTP_SECRET, now);
  await tx.delete(schema.addressBook).where(sql`${schema.addressBook.userId} = ${customer.id}`);
  await insertInChunks(tx, schema.addressBook, customerAddresses.map((address) => ({ ...address, userId: customer.id })));
  log(
    `Users: ${demoUsers.admin.email} (admin, authenticator secret ${DEMO_ADMIN_TOTP_SECRET}), ${demoUsers.newStaff.email} (admin who has not set up a second factor yet), ` +
      `${demoUsers.customer.email} (customer with the "Loyal collector" discount)`,
  );

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

  // Purchases still on their way: boxes being filled abroad and one in transit, not yet booked into stock.
  const pending = pendingBoxes(productCount, totals, rate, now, seed);
  await insertInChunks(tx, schema.box, pending.boxes);
  await insertInChunks(tx, schema.purchaseRecord, pending.purchaseRecords);

  const restockStatuses: RestockStatus[] = ["PENDING", "PENDING", "PENDING", "APPROVED", "APPROVED", "REJECTED", "REJECTED"];
  await insertInChunks(tx, schema.productRestockManager, outOfStock.slice(0, restockStatuses.length).map((productId, i) => ({
    productId, status: restockStatuses[i] ?? "PENDING",
  })));
  await insertInChunks(tx, schema.productTemplate, templates(ids));
  await seedLogbook(tx, { adminId: admin.id, now, productCount, outOfStock: outOfStock.length, boxes: totals.boxes });

  await syncIdentities(tx, [
    schema.country, schema.discount, schema.productCategory, schema.productManufacturer, schema.product, schema.box, schema.purchaseRecord,
  ]);

  const historyOrders = productCount > 0 ? Math.max(0, Math.floor(options.orders ?? 0)) : 0;
  await writeOrderHistory(tx, { count: historyOrders, productCount, now, customerId: customer.id, rate, log });
  const orders = await placeDemoOrders(tx, plan, { now, customerId: customer.id, adminId: admin.id, orderNumberBase: historyOrders });
  await syncIdentities(tx, [schema.order, schema.orderItem]);
  const statuses = Object.entries(orders.byStatus).map(([status, n]) => `${n} ${status}`).join(", ");
  log(`Orders: ${orders.orders} over the last six months (${statuses}; ${orders.byShop.EBAY} from eBay)${historyOrders ? ` after a history of ${historyOrders}` : ""}`);

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
    categories: categoryRows.length,
    manufacturers: manufacturerRows.length,
    countries: countryRows.length,
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

type Ledger = {
  boxes: InferInsertModel<typeof schema.box>[];
  purchaseRecords: InferInsertModel<typeof schema.purchaseRecord>[];
  stockRecords: InferInsertModel<typeof schema.stockRecord>[];
};

/**
 * The purchases behind the stock of a batch of products: each product in stock, or sold in the demo's orders, was
 * bought in one go (the pieces on the shelf and those the orders sell), travelled in a box with others and was
 * booked into stock when the box was exploded, before the product went online. The orders then take their pieces
 * through the ledger, so each product's stock equals the sum of its ledger rows.
 */
function stockLedger(
  drafts: ProductDraft[],
  totals: { inStock: number; boxes: number; purchaseRecords: number; stockRecords: number },
  rate: Decimal,
  plan: DemoOrderPlan,
): Ledger {
  const ledger: Ledger = { boxes: [], purchaseRecords: [], stockRecords: [] };
  const bought = (draft: ProductDraft) => draft.stock + (plan.sold.get(draft.index + 1) ?? 0);
  const inStock = drafts.filter((draft) => bought(draft) > 0);
  for (let start = 0; start < inStock.length; start += RECORDS_PER_BOX) {
    const group = inStock.slice(start, start + RECORDS_PER_BOX);
    const boxId = ++totals.boxes;
    const explodedAt = new Date(Math.min(...group.map((draft) => draft.createdAt.getTime())) - DAY);
    const packedAt = new Date(explodedAt.getTime() - 16 * DAY);
    ledger.boxes.push({
      id: boxId, status: "EXPLODED", estimatedDeliveryDate: localDate(explodedAt), trackingNumber: trackingNumber(boxId),
      createdAt: packedAt, updatedAt: explodedAt,
    });
    for (const draft of group) {
      const purchaseRecordId = ++totals.purchaseRecords;
      const costEuro = unitCost(draft);
      const pieces = bought(draft);
      ledger.purchaseRecords.push({
        id: purchaseRecordId, productId: draft.index + 1, boxId, purchaseCostEuro: costEuro, purchaseCostPhp: costEuro.times(rate).toDecimalPlaces(2),
        purchasedStock: pieces, remainingStock: pieces, createdAt: packedAt, updatedAt: explodedAt,
      });
      ledger.stockRecords.push({
        productId: draft.index + 1, type: "PURCHASE_RECORD", purchaseRecordId, quantity: pieces, createdAt: explodedAt, updatedAt: explodedAt,
      });
      totals.stockRecords++;
      if (draft.stock > 0) totals.inStock++;
    }
  }
  return ledger;
}

/** What one piece cost the shop, in euro. */
function unitCost(draft: ProductDraft): Decimal {
  return draft.price.times(draft.costShare).toDecimalPlaces(2);
}

function trackingNumber(boxId: number): string {
  return `LX${String(100_000_000 + boxId * 7_919).slice(-9)}PH`;
}

function pendingBoxes(productCount: number, totals: { boxes: number; purchaseRecords: number }, rate: Decimal, now: Date, seed: number): Ledger {
  const ledger: Ledger = { boxes: [], purchaseRecords: [], stockRecords: [] };
  if (productCount === 0) return ledger;
  const rng = createRandom(seed + 1);
  const plans = [
    { status: "OPEN" as const, records: 4, deliveryInDays: null },
    { status: "OPEN" as const, records: 3, deliveryInDays: null },
    { status: "SHIPPED" as const, records: 6, deliveryInDays: 9 },
  ];
  for (const plan of plans) {
    const boxId = ++totals.boxes;
    const packedAt = new Date(now.getTime() - rng.int(2, 20) * DAY);
    ledger.boxes.push({
      id: boxId, status: plan.status,
      estimatedDeliveryDate: plan.deliveryInDays === null ? null : localDate(new Date(now.getTime() + plan.deliveryInDays * DAY)),
      trackingNumber: plan.status === "SHIPPED" ? trackingNumber(boxId) : null,
      createdAt: packedAt, updatedAt: packedAt,
    });
    for (let i = 0; i < plan.records; i++) {
      const productIndex = rng.int(0, Math.min(productCount, seedDefaults.products) - 1);
      const draftPrice = generateProduct(productIndex, { seed, now }).price;
      const costEuro = draftPrice.times(0.3 + rng.next() * 0.2).toDecimalPlaces(2);
      const quantity = rng.int(1, 5);
      ledger.purchaseRecords.push({
        id: ++totals.purchaseRecords, productId: productIndex + 1, boxId, purchaseCostEuro: costEuro,
        purchaseCostPhp: costEuro.times(rate).toDecimalPlaces(2), purchasedStock: quantity, remainingStock: quantity,
        createdAt: packedAt, updatedAt: packedAt,
      });
    }
  }
  return ledger;
}

function templates(ids: Ids): InferInsertModel<typeof schema.productTemplate>[] {
  // A category, maker or country the demo catalogue lacks leaves the template's field empty.
  return productTemplates.map(({ category, manufacturer, country, ...template }) => ({
    ...template,
    categoryId: ids.category.get(category) ?? null,
    manufacturerId: manufacturer === undefined ? null : (ids.manufacturer.get(manufacturer) ?? null),
    countryId: ids.country.get(country) ?? null,
  }));
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
