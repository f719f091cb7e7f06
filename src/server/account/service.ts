import "server-only";
import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import { moneyBackRefundStatuses } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { account, addressBook, country, discount, order, orderItem, paymentDetail, refund, user } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { logChange } from "@/server/logbook/service";
import { formatDiscountValue } from "@/server/discounts/discount-price";
import { userDiscountInForce } from "@/server/discounts/in-force";
import { MAX_ADDRESSES, type Address, type AddressValues, type CountryOption, type OrderSummary, type Profile } from "./schemas";

export async function getProfile(db: Db, userId: string, now: Date): Promise<Profile> {
  const [row] = await db
    .select({
      id: user.id, name: user.name, email: user.email, image: user.image, role: user.role, memberSince: user.createdAt,
      discountName: discount.name, discountValue: discount.value, discountPricingType: discount.pricingType,
    })
    .from(user)
    .leftJoin(discount, userDiscountInForce(now))
    .where(eq(user.id, userId));
  if (!row) throw new AppError("NOT_FOUND", "Your account could not be found; please sign in again.");
  const providers = await db.select({ provider: account.provider }).from(account).where(eq(account.userId, userId));
  const { discountName, discountValue, discountPricingType, ...profile } = row;
  return {
    ...profile,
    signInMethods: ["email", ...providers.map((p) => p.provider).filter((p) => p !== "nodemailer")],
    personalDiscount:
      discountName && discountValue && discountPricingType
        ? { name: discountName, label: formatDiscountValue({ value: discountValue, pricingType: discountPricingType }) }
        : null,
  };
}

export async function updateProfile(db: Db, userId: string, values: { name: string }): Promise<Profile> {
  await db.update(user).set({ name: values.name }).where(eq(user.id, userId));
  return getProfile(db, userId, new Date());
}

/** Countries the shop ships to, for the address form. */
export async function listCountries(db: Db): Promise<CountryOption[]> {
  return db.select({ code: country.code, name: country.name, eu: country.eu }).from(country).where(eq(country.active, true)).orderBy(asc(country.name));
}

const addressColumns = {
  id: addressBook.id, firstName: addressBook.firstName, lastName: addressBook.lastName, companyName: addressBook.companyName,
  street: addressBook.street, houseNumber: addressBook.houseNumber, addressLine2: addressBook.addressLine2, postCode: addressBook.postCode,
  city: addressBook.city, country: addressBook.country, countryCode: addressBook.countryCode, state: addressBook.state,
  phoneNumber: addressBook.phoneNumber, email: addressBook.email, isDefault: addressBook.isDefault,
};

export async function listAddresses(db: Db, userId: string): Promise<Address[]> {
  return db.select(addressColumns).from(addressBook).where(eq(addressBook.userId, userId)).orderBy(desc(addressBook.isDefault), asc(addressBook.id));
}

async function countryName(db: Db, code: string): Promise<string> {
  const [row] = await db.select({ name: country.name }).from(country).where(and(eq(country.code, code), eq(country.active, true)));
  if (!row) throw new AppError("BAD_REQUEST", "We do not ship to that country; choose one from the list.");
  return row.name;
}

async function ownAddress(db: Db, userId: string, id: number): Promise<Address> {
  const [row] = await db.select(addressColumns).from(addressBook).where(and(eq(addressBook.id, id), eq(addressBook.userId, userId)));
  if (!row) throw new AppError("NOT_FOUND", "That address is not in your address book.");
  return row;
}

function logAddress(tx: Db, userId: string, id: number, description: string, previousState: Address | null, newState: Address | null) {
  return logChange(tx, { userId, eventType: "ADDRESS", entityType: "ADDRESS_BOOK", entityId: id, description, previousState, newState });
}

export async function countAddresses(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(addressBook).where(eq(addressBook.userId, userId));
  return row?.n ?? 0;
}

/** The first key of the advisory lock that stands for one customer's address book (the second is their id's hash). */
const ADDRESS_BOOK_LOCK = 80_412_007;

/**
 * Adds an address, up to MAX_ADDRESSES. The first address a customer saves becomes the default, and a new default
 * takes over from the old one, so a customer with addresses always has exactly one default.
 */
export async function createAddress(db: Db, userId: string, values: AddressValues): Promise<Address> {
  return db.transaction(async (tx) => {
    // Two addresses saved at once (two tabs, or a checkout) wait for each other, so neither passes the limit.
    await tx.execute(sql`select pg_advisory_xact_lock(${ADDRESS_BOOK_LOCK}, hashtext(${userId}))`);
    const existing = await countAddresses(tx, userId);
    if (existing >= MAX_ADDRESSES) {
      throw new AppError("CONFLICT", `Your address book is full (${MAX_ADDRESSES} addresses). Delete an address you no longer use, then add this one.`);
    }
    const name = await countryName(tx, values.countryCode);
    const isDefault = values.isDefault || existing === 0;
    if (isDefault) await tx.update(addressBook).set({ isDefault: false }).where(and(eq(addressBook.userId, userId), eq(addressBook.isDefault, true)));
    const [row] = await tx
      .insert(addressBook)
      .values({ ...values, isDefault, userId, country: name })
      .returning(addressColumns);
    if (!row) throw new AppError("INTERNAL_SERVER_ERROR", "The address could not be saved.");
    await logAddress(tx, userId, row.id, "Customer added an address", null, row);
    return row;
  });
}

export async function updateAddress(db: Db, userId: string, id: number, values: AddressValues): Promise<Address> {
  return db.transaction(async (tx) => {
    const before = await ownAddress(tx, userId, id);
    const name = await countryName(tx, values.countryCode);
    // Unticking the default does not leave the customer without one; choosing another address does.
    const isDefault = values.isDefault || before.isDefault;
    if (isDefault && !before.isDefault) {
      await tx.update(addressBook).set({ isDefault: false }).where(and(eq(addressBook.userId, userId), eq(addressBook.isDefault, true)));
    }
    const [row] = await tx
      .update(addressBook)
      .set({ ...values, isDefault, country: name })
      .where(and(eq(addressBook.id, id), eq(addressBook.userId, userId)))
      .returning(addressColumns);
    if (!row) throw new AppError("NOT_FOUND", "That address is not in your address book.");
    await logAddress(tx, userId, id, "Customer changed an address", before, row);
    return row;
  });
}

export async function setDefaultAddress(db: Db, userId: string, id: number): Promise<Address[]> {
  await db.transaction(async (tx) => {
    const before = await ownAddress(tx, userId, id);
    if (before.isDefault) return;
    await tx.update(addressBook).set({ isDefault: false }).where(and(eq(addressBook.userId, userId), eq(addressBook.isDefault, true)));
    await tx.update(addressBook).set({ isDefault: true }).where(eq(addressBook.id, id));
    await logAddress(tx, userId, id, "Customer chose a default address", before, { ...before, isDefault: true });
  });
  return listAddresses(db, userId);
}

/** Deletes an address; when it was the default, the oldest remaining address becomes the default. */
export async function deleteAddress(db: Db, userId: string, id: number): Promise<Address[]> {
  await db.transaction(async (tx) => {
    const before = await ownAddress(tx, userId, id);
    await tx.delete(addressBook).where(and(eq(addressBook.id, id), eq(addressBook.userId, userId)));
    if (before.isDefault) {
      const [next] = await tx.select({ id: addressBook.id }).from(addressBook).where(eq(addressBook.userId, userId)).orderBy(asc(addressBook.id)).limit(1);
      if (next) await tx.update(addressBook).set({ isDefault: true }).where(eq(addressBook.id, next.id));
    }
    await logAddress(tx, userId, id, "Customer deleted an address", before, null);
  });
  return listAddresses(db, userId);
}

/**
 * The order's id, qualified by its table: in a select from one table Drizzle writes bare column names, so a bare
 * `order.id` inside a subquery would name the subquery's own `id`.
 */
const orderIdOutside = sql`${order}.${sql.identifier("id")}`;

/** The customer's orders, newest first, with their paid total where a payment exists. */
export async function listOrders(db: Db, userId: string): Promise<OrderSummary[]> {
  return db
    .select({
      id: order.id,
      orderNumber: order.orderNumber,
      status: order.status,
      createdAt: order.createdAt,
      soldAt: order.soldAt,
      itemCount: sql<number>`coalesce((select sum(${orderItem.quantity}) from ${orderItem} where ${orderItem.orderId} = ${orderIdOutside}), 0)::int`,
      total: sql`(select ${paymentDetail.total} from ${paymentDetail} where ${paymentDetail.orderId} = ${orderIdOutside} order by ${paymentDetail.id} desc limit 1)`.mapWith(paymentDetail.total),
      refunded: sql`coalesce((select sum(${refund.amount}) from ${refund} where ${refund.orderId} = ${orderIdOutside} and ${inArray(refund.status, [...moneyBackRefundStatuses])}), 0)`.mapWith(refund.amount),
    })
    .from(order)
    .where(eq(order.userId, userId))
    .orderBy(desc(order.createdAt), desc(order.id));
}
