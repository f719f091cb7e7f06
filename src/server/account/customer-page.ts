import "server-only";
import { and, desc, eq, ne, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { account, discount, logbook, order, refund, user } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { logChange } from "@/server/logbook/service";
import { CUSTOMER_LOG_ENTRIES, type CustomerDetail, type CustomerLogEntry, type CustomerNotesValues, type CustomerRefund } from "./customer-admin-schemas";
import { customerStats, noStats } from "./customer-stats";
import { customerDiscount } from "./customer-table";
import { listAddresses, listOrders } from "./service";

/*
 * One customer's page in the back office: who they are, what their orders come to, their orders, refunds and address
 * book, staff's note and tags, VIP, and the logbook about them. Staff's changes to the customer are logged as
 * CUSTOMER entries on the USER.
 */

/** The logbook about a customer: entries on their account (entity USER) and entries they made (their address book). */
export function aboutCustomer(userId: string): SQL {
  return or(and(eq(logbook.entityType, "USER"), eq(logbook.entityId, userId)), eq(logbook.userId, userId))!;
}

/** The customer's row, locked for the change when `tx` is a transaction that will write it. */
export async function customerRow(db: Db, userId: string, options: { lock?: boolean } = {}) {
  const query = db
    .select({ id: user.id, name: user.name, email: user.email, emailVerified: user.emailVerified, role: user.role, staffNote: user.staffNote, tags: user.tags, erasedAt: user.erasedAt })
    .from(user)
    .where(eq(user.id, userId));
  const [row] = options.lock ? await query.for("update") : await query;
  if (!row) throw new AppError("NOT_FOUND", "That customer does not exist.");
  return row;
}

/** Who a log line names: their e-mail, which staff search the logbook by. */
const who = (row: { email: string; name: string | null }) => row.email;

export async function getCustomer(db: Db, userId: string): Promise<CustomerDetail> {
  const [row] = await db
    .select({
      id: user.id, name: user.name, email: user.email, role: user.role, joinedAt: user.createdAt, erasedAt: user.erasedAt,
      staffNote: user.staffNote, tags: user.tags,
      discountId: discount.id, discountName: discount.name, discountValue: discount.value, discountPricingType: discount.pricingType,
    })
    .from(user)
    .leftJoin(discount, eq(discount.id, user.discountId))
    .where(eq(user.id, userId));
  if (!row) throw new AppError("NOT_FOUND", "That customer does not exist.");
  const [providers, stats, orders, refunds, addresses, entries] = await Promise.all([
    db.select({ provider: account.provider }).from(account).where(eq(account.userId, userId)),
    customerStats(db, [userId]),
    listOrders(db, userId),
    customerRefunds(db, userId),
    listAddresses(db, userId),
    customerLogbook(db, userId),
  ]);
  const { discountId, discountName, discountValue, discountPricingType, ...customer } = row;
  return {
    ...customer,
    discount: customerDiscount({ discountId, discountName, discountValue, discountPricingType }),
    signInMethods: providers.map((one) => (one.provider === "nodemailer" ? "email" : one.provider)),
    stats: stats.get(userId) ?? noStats(),
    orders,
    refunds,
    addresses,
    logbook: entries,
  };
}

/** Every refund on the customer's orders, newest first. */
export async function customerRefunds(db: Db, userId: string): Promise<CustomerRefund[]> {
  return db
    .select({
      id: refund.id, orderNumber: order.orderNumber, createdAt: refund.createdAt, type: refund.type, reason: refund.reason,
      amount: refund.amount, status: refund.status, comment: refund.comment,
    })
    .from(refund)
    .innerJoin(order, eq(order.id, refund.orderId))
    .where(eq(order.userId, userId))
    .orderBy(desc(refund.createdAt), desc(refund.id));
}

async function customerLogbook(db: Db, userId: string): Promise<CustomerLogEntry[]> {
  const by = sql<string | null>`(select coalesce(${user.name}, ${user.email}) from ${user} where ${user.id} = ${logbook.userId})`;
  return db
    .select({
      id: logbook.id, createdAt: logbook.createdAt, eventType: logbook.eventType, entityType: logbook.entityType, entityId: logbook.entityId,
      description: logbook.description, by,
    })
    .from(logbook)
    // The pieces their orders took from stock are the products' history, not theirs; the export holds them all.
    .where(and(aboutCustomer(userId), ne(logbook.eventType, "STOCK_CHANGE")))
    .orderBy(desc(logbook.createdAt), desc(logbook.id))
    .limit(CUSTOMER_LOG_ENTRIES);
}

/** Tags as staff gave them, each once whatever its case, in the order given. */
function distinctTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  return tags.filter((tag) => {
    const key = tag.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Staff's note and tags on a customer; logged with both before and after. Saving them unchanged changes nothing. */
export async function updateCustomerNotes(db: Db, values: CustomerNotesValues, actor: { userId: string }): Promise<CustomerDetail> {
  await db.transaction(async (tx) => {
    const before = await customerRow(tx, values.userId, { lock: true });
    if (before.erasedAt) throw new AppError("CONFLICT", "This customer's data was erased on their request; there is nothing to note.");
    const after = { staffNote: values.staffNote, tags: distinctTags(values.tags) };
    const previous = { staffNote: before.staffNote, tags: before.tags };
    if (JSON.stringify(previous) === JSON.stringify(after)) return;
    await tx.update(user).set(after).where(eq(user.id, values.userId));
    const changed = [previous.staffNote !== after.staffNote ? "note" : null, JSON.stringify(previous.tags) !== JSON.stringify(after.tags) ? "tags" : null].filter(Boolean);
    await logChange(tx, {
      userId: actor.userId, eventType: "CUSTOMER", entityType: "USER", entityId: values.userId,
      description: `Staff changed the ${changed.join(" and ")} of customer ${who(before)}`,
      previousState: previous, newState: after,
    });
  });
  return getCustomer(db, values.userId);
}

/**
 * Makes a customer a VIP or a plain customer again. Staff accounts keep their role: taking staff rights away is not
 * a customer's matter.
 */
export async function setCustomerVip(db: Db, input: { userId: string; vip: boolean }, actor: { userId: string }): Promise<CustomerDetail> {
  await db.transaction(async (tx) => {
    const before = await customerRow(tx, input.userId, { lock: true });
    if (before.role === "ADMIN") throw new AppError("CONFLICT", "This is a staff account; its role is not changed here.");
    if (before.erasedAt) throw new AppError("CONFLICT", "This customer's data was erased on their request.");
    const role = input.vip ? "VIP" : "USER";
    if (before.role === role) return;
    await tx.update(user).set({ role }).where(eq(user.id, input.userId));
    await logChange(tx, {
      userId: actor.userId, eventType: "CUSTOMER", entityType: "USER", entityId: input.userId,
      description: input.vip ? `Staff made customer ${who(before)} a VIP` : `Staff made customer ${who(before)} a regular customer (no longer VIP)`,
      previousState: { role: before.role }, newState: { role },
    });
  });
  return getCustomer(db, input.userId);
}
