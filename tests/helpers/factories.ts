import { Decimal } from "decimal.js";
import type { Caliber, Gender, ItemType, PricingType, ProductState } from "@/lib/enums";
import { buildSearchText } from "@/server/catalog/search-text";
import type { CheckoutPaymentMethod, PlaceOrderInput } from "@/server/checkout/schemas";
import { placeOrder } from "@/server/checkout/service";
import type { Db } from "@/server/db/client";
import { discount, product, productCategory, productDescription, productManufacturer } from "@/server/db/schema";
import { addPurchaseRecord, createBox, explodeBox, shipBox } from "@/server/stock/boxes";
import { bookStockInProductOrder } from "@/server/stock/service";

// Small factories for tests: each makes exactly the rows a test names, nothing shared between tests.

export async function makeManufacturer(db: Db, name: string, parentId?: number) {
  const [row] = await db.insert(productManufacturer).values({ name, parentId, isParent: parentId === undefined }).returning();
  return row!;
}

export async function makeCategory(db: Db, name: string, parentId?: number) {
  const [row] = await db.insert(productCategory).values({ name, parentId, isParent: parentId === undefined }).returning();
  return row!;
}

export async function makeDiscount(
  db: Db,
  values: { name?: string; value: string; pricingType: PricingType; discountType: "PRODUCT" | "GLOBAL" | "USER" | "COUPON"; active?: boolean; startsAt?: Date; expiresAt?: Date },
) {
  const [row] = await db
    .insert(discount)
    .values({ name: values.name ?? `${values.discountType} ${values.value}`, ...values, value: new Decimal(values.value) })
    .returning();
  return row!;
}

export type ProductSpec = {
  name: string;
  price?: string;
  stock?: number;
  manufacturer?: { id: number; name: string };
  category?: { id: number; name: string };
  caliber?: Caliber;
  state?: ProductState;
  gender?: Gender;
  itemType?: ItemType;
  discountId?: number;
  createdAt?: Date;
  wsStatus?: "ONLINE" | "OFFLINE";
};

export async function makeProduct(db: Db, spec: ProductSpec) {
  const [row] = await makeProducts(db, [spec]);
  return row!;
}

/**
 * Many products in two statements, for catalogues too big to insert one by one; returned in the order given. Their
 * stock (1 unless told) comes in through the ledger (`bookStock`), as the shop's own stock does, so that the ledger
 * adds up to every product's stock and orders and refunds can take and return it.
 */
export async function makeProducts(db: Db, specs: ProductSpec[]) {
  const rows = await db
    .insert(product)
    .values(
      specs.map((spec) => ({
        name: spec.name,
        price: new Decimal(spec.price ?? "10.00"),
        stock: 0,
        manufacturerId: spec.manufacturer?.id,
        categoryId: spec.category?.id,
        discountId: spec.discountId,
        wsStatus: spec.wsStatus ?? "ONLINE",
        createdAt: spec.createdAt,
        searchText: buildSearchText({
          name: spec.name,
          manufacturer: spec.manufacturer?.name,
          category: spec.category?.name,
          caliber: spec.caliber,
          itemType: spec.itemType,
        }),
      })),
    )
    .returning();
  await db.insert(productDescription).values(
    specs.map((spec, index) => ({
      productId: rows[index]!.id,
      caliber: spec.caliber ?? "UNKNOWN",
      state: spec.state ?? "UNKNOWN",
      gender: spec.gender ?? "UNKNOWN",
      itemType: spec.itemType ?? "UNKNOWN",
    })),
  );
  const stocked = specs.map((spec, index) => ({ productId: rows[index]!.id, quantity: spec.stock ?? 1 })).filter((entry) => entry.quantity > 0);
  await db.transaction((tx) =>
    bookStockInProductOrder(
      tx,
      stocked.map((entry) => ({ ...entry, type: "INVENTORY_CORRECTION", userId: null, description: "Test stock" })),
    ),
  );
  return rows.map((row, index) => ({ ...row, stock: specs[index]!.stock ?? 1 }));
}

/** A product with the stock a test names, booked through the ledger as `makeProducts` books all stock. */
export async function makeStockedProduct(db: Db, spec: Omit<ProductSpec, "stock"> & { stock: number }) {
  return makeProduct(db, spec);
}

/** The buyer in Amsterdam the tests' guest orders go to unless told otherwise. */
export const amsterdamAddress = { firstName: "Ada", lastName: "Lovelace", street: "Dam", houseNumber: "1", postCode: "1012 JS", city: "Amsterdam", countryCode: "NL" };

/**
 * A guest order placed through checkout (`placeOrder`) for products in stock, as a buyer would place it: to Amsterdam,
 * tracked and by iDEAL unless told otherwise. Not paid yet.
 */
export async function placeGuestOrder(
  db: Db,
  order: Pick<PlaceOrderInput, "email" | "items" | "couponCode"> & Partial<Pick<PlaceOrderInput, "shippingMethod" | "paymentMethod">> & { address?: Partial<PlaceOrderInput["address"]> },
  now: Date,
) {
  const { address, shippingMethod = "TNT", paymentMethod = "IDEAL", ...rest } = order;
  return placeOrder(db, { ...rest, address: { ...amsterdamAddress, ...address }, shippingMethod, paymentMethod }, { userId: null }, now);
}

/**
 * A guest order for one watch in stock, placed through checkout (`placeGuestOrder`), as a buyer in Amsterdam would
 * place it: the watch is stocked through the ledger first, so the order takes it as a real one would.
 */
export async function placeOneWatchOrder(db: Db, options: { email: string; method: CheckoutPaymentMethod; now: Date; price?: string }) {
  const watch = await makeStockedProduct(db, { name: `Watch for ${options.email}`, price: options.price ?? "60.00", stock: 1 });
  const placed = await placeGuestOrder(db, { email: options.email, paymentMethod: options.method, items: [{ productId: watch.id, quantity: 1 }] }, options.now);
  return { ...placed, watchId: watch.id };
}

/**
 * Pieces of a product bought in a box at `unitCost` each, the box shipped and exploded into stock through the stock
 * service, as staff do it: the purchase records that FIFO costs sold pieces with.
 */
export async function stockFromBox(db: Db, userId: string, purchase: { productId: number; quantity: number; unitCost: string; currency: "EUR" | "PHP" }) {
  const { id: boxId } = await createBox(db, userId);
  await addPurchaseRecord(db, { boxId, ...purchase }, userId);
  await shipBox(db, { boxId, trackingNumber: `LX${boxId}PH`, estimatedDeliveryDate: "2030-01-01" }, userId);
  await explodeBox(db, boxId, userId);
}
