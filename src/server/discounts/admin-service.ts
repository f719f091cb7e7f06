import "server-only";
import { Decimal } from "decimal.js";
import { and, asc, count, desc, eq, ne, sql, type SQL } from "drizzle-orm";
import { catalogueChanged } from "@/server/cache/catalogue";
import type { Db } from "@/server/db/client";
import { lockExistingRow } from "@/server/db/lock-row";
import { discount, order, orderDiscount, orderItem, product, user } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { logChange, type LogChange } from "@/server/logbook/service";
import { formatShopDateTime, type DiscountDetail, type DiscountFormValues, type DiscountListInput, type DiscountRow } from "./admin-schemas";
import { formatDiscountValue } from "./discount-price";
import { applyTargets, currentTargets, type TargetChange, type TargetId } from "./discount-targets";
import { discountStatus } from "./in-force";
import { countedOrder, discountColumns } from "./service";

/**
 * Staff's discounts (`admin.discounts.*`): the four kinds, their windows in the shop's time zone, the active switch,
 * and which products (PRODUCT) or customers (USER) hold them (`./discount-targets.ts`). Every change is logged (event
 * and entity DISCOUNT) with the state before and after, in the transaction that makes it.
 *
 * The storefront reads prices and discounts from the database on every request (its pages are dynamic and no data
 * cache stands in front of the catalogue), so a saved change shows in the shop at once: there is nothing to
 * invalidate here. Should the catalogue ever cache, this is where a change must clear it.
 */

// ---------------------------------------------------------------------------------------------------------------
// The list and one discount
// ---------------------------------------------------------------------------------------------------------------

/** Per discount: the orders (not cancelled) that recorded it, and what they paid for their items. */
function usageByDiscount(db: Db) {
  return db
    .select({
      discountId: orderDiscount.discountId,
      uses: count().as("uses"),
      revenue: sql<string>`coalesce(sum((select coalesce(sum(${orderItem.totalPrice}), 0) from ${orderItem} where ${orderItem.orderId} = ${orderDiscount.orderId})), 0)`.as(
        "revenue",
      ),
    })
    .from(orderDiscount)
    .innerJoin(order, eq(order.id, orderDiscount.orderId))
    .where(countedOrder)
    .groupBy(orderDiscount.discountId)
    .as("usage");
}

async function selectRows(db: Db, where: SQL | undefined, now: Date): Promise<DiscountRow[]> {
  const usage = usageByDiscount(db);
  const rows = await db
    .select({
      ...discountColumns,
      updatedAt: discount.updatedAt,
      products: sql<number>`(select count(*) from ${product} where ${product.discountId} = ${discount.id})`.mapWith(Number),
      customers: sql<number>`(select count(*) from ${user} where ${user.discountId} = ${discount.id})`.mapWith(Number),
      uses: usage.uses,
      revenue: usage.revenue,
    })
    .from(discount)
    .leftJoin(usage, eq(usage.discountId, discount.id))
    .where(where)
    .orderBy(desc(discount.createdAt), desc(discount.id));
  return rows.map(({ products, customers, uses, revenue, ...row }) => ({
    ...row,
    label: formatDiscountValue(row),
    status: discountStatus(row, now),
    targets: row.discountType === "PRODUCT" ? products : row.discountType === "USER" ? customers : null,
    uses: Number(uses ?? 0),
    revenue: new Decimal(revenue ?? 0),
  }));
}

/** Every discount, newest first, with its status now, targets, uses and revenue; filtered by kind and status. */
export async function listDiscounts(db: Db, query: DiscountListInput = {}, now: Date = new Date()): Promise<DiscountRow[]> {
  const rows = await selectRows(db, query.type ? eq(discount.discountType, query.type) : undefined, now);
  return query.status ? rows.filter((row) => row.status === query.status) : rows;
}

/** One discount with the products or customers holding it, for the edit page. */
export async function getDiscount(db: Db, id: number, now: Date = new Date()): Promise<DiscountDetail> {
  const [row] = await selectRows(db, eq(discount.id, id), now);
  if (!row) throw new AppError("NOT_FOUND", `Discount ${id} does not exist.`);
  const [products, customers] = await Promise.all([
    row.discountType === "PRODUCT"
      ? db.select({ id: product.id, name: product.name }).from(product).where(eq(product.discountId, id)).orderBy(asc(product.name), asc(product.id))
      : [],
    row.discountType === "USER"
      ? db.select({ id: user.id, name: user.name, email: user.email, role: user.role }).from(user).where(eq(user.discountId, id)).orderBy(asc(user.email))
      : [],
  ]);
  return { ...row, products, customers };
}

// ---------------------------------------------------------------------------------------------------------------
// Saving
// ---------------------------------------------------------------------------------------------------------------

/** A discount as the logbook keeps it before and after a change. */
type DiscountState = Pick<typeof discount.$inferSelect, keyof typeof discountColumns>;

/** What a save writes to the discount's own row; its targets are written to the products or customers. */
function columnsOf({ productIds, categoryIds, manufacturerIds, customerIds, allVips, ...columns }: DiscountFormValues) {
  return columns;
}

/** A discount's logbook entry (event and entity DISCOUNT), in the transaction that makes the change. */
/** Every discount change is logged and, as a discount can change any price the shop shows, refreshes every page. */
async function logDiscountChange(tx: Db, id: number, change: Omit<LogChange, "eventType" | "entityType" | "entityId">): Promise<number> {
  await catalogueChanged(tx, { everything: true });
  return logChange(tx, { ...change, eventType: "DISCOUNT", entityType: "DISCOUNT", entityId: id });
}

/** A window in words: "from 4 May 2026, 09:00 until 1 Jun 2026, 00:00", "from ... on", "until ...", "always". */
function windowText(window: { startsAt: Date | null; expiresAt: Date | null }): string {
  const from = window.startsAt ? `from ${formatShopDateTime(window.startsAt)}` : "";
  const until = window.expiresAt ? `until ${formatShopDateTime(window.expiresAt)}` : "";
  if (from && until) return `${from} ${until}`;
  if (from) return `${from} on`;
  return until || "without an end";
}

/** A discount's state as the logbook keeps it: its columns, with the value as the shop shows it. */
function loggedState(state: DiscountState, targets: TargetId[] | null) {
  return { ...state, label: formatDiscountValue(state), ...(targets === null ? {} : { targets }) };
}

const earliest = Number.NEGATIVE_INFINITY;
const latest = Number.POSITIVE_INFINITY;

/**
 * Refuses (CONFLICT) a coupon code that another coupon uses in an overlapping window, switched on or off: the shop
 * must know which coupon a code means at any moment, also after one is switched back on. A code may come back in
 * another window (a yearly promotion).
 */
async function refuseOverlappingCode(tx: Db, values: DiscountFormValues, exceptId: number | null): Promise<void> {
  if (values.discountType !== "COUPON") return;
  const others = await tx
    .select({ id: discount.id, startsAt: discount.startsAt, expiresAt: discount.expiresAt })
    .from(discount)
    .where(and(eq(discount.discountType, "COUPON"), eq(sql`upper(${discount.name})`, values.name), exceptId === null ? undefined : ne(discount.id, exceptId)));
  const start = values.startsAt?.getTime() ?? earliest;
  const end = values.expiresAt?.getTime() ?? latest;
  const clash = others.find((other) => (other.startsAt?.getTime() ?? earliest) < end && start < (other.expiresAt?.getTime() ?? latest));
  if (clash) {
    throw new AppError(
      "CONFLICT",
      `The code ${values.name} is already used by discount ${clash.id} (${windowText(clash)}), whose dates overlap these. Choose another code, or dates outside that window.`,
    );
  }
}

function targetWords(type: DiscountFormValues["discountType"], change: TargetChange | null): string {
  if (!change) return "";
  const noun = type === "PRODUCT" ? "product" : "customer";
  const plural = (n: number) => `${n} ${noun}${n === 1 ? "" : "s"}`;
  const parts = [`held by ${plural(change.total)}`];
  if (change.moved.length) parts.push(`${change.moved.length} taken from other discounts`);
  if (change.released.length) parts.push(`${plural(change.released.length)} no longer`);
  return `; ${parts.join(", ")}`;
}

/** A new discount of any kind, given to the products or customers its targets name; logged. */
export async function createDiscount(db: Db, values: DiscountFormValues, userId: string): Promise<{ id: number }> {
  return db.transaction(async (tx) => {
    await refuseOverlappingCode(tx, values, null);
    const [state] = await tx.insert(discount).values(columnsOf(values)).returning(discountColumns);
    if (!state) throw new AppError("INTERNAL_SERVER_ERROR", "The discount could not be saved.");
    const change = await applyTargets(tx, state.id, values);
    await logDiscountChange(tx, state.id, {
      userId,
      newState: { ...loggedState(state, change ? change.added : null), ...(change?.moved.length ? { movedFrom: change.moved } : {}) },
      description: `Discount ${state.id} "${state.name}" created: ${state.discountType} ${formatDiscountValue(state)}, ${windowText(state)}${state.active ? "" : ", switched off"}${targetWords(state.discountType, change)}`,
    });
    return { id: state.id };
  });
}

/** Which of a discount's columns a save changes. */
function changedColumns(before: DiscountState, after: DiscountState): (keyof DiscountState)[] {
  const same = (a: unknown, b: unknown) => {
    if (a instanceof Decimal || b instanceof Decimal) return a !== null && b !== null && new Decimal(a as Decimal).equals(b as Decimal);
    if (a instanceof Date || b instanceof Date) return (a as Date | null)?.getTime() === (b as Date | null)?.getTime();
    return a === b;
  };
  return (Object.keys(discountColumns) as (keyof DiscountState)[]).filter((key) => !same(before[key], after[key]));
}

/**
 * Saves a discount: its terms, window and switch, and for a PRODUCT or USER discount exactly the products or
 * customers its targets name (a product held by another discount moves to this one; one no longer named loses it).
 * The kind stays what it was created as. Logged with the state before and after.
 */
export async function updateDiscount(db: Db, id: number, values: DiscountFormValues, userId: string, now: Date = new Date()): Promise<DiscountDetail> {
  await db.transaction(async (tx) => {
    const before: DiscountState = await lockExistingRow(tx, discount, id, discountColumns, "Discount");
    if (before.discountType !== values.discountType) {
      throw new AppError("BAD_REQUEST", `Discount ${id} is a ${before.discountType} discount and stays one; create a new discount of another kind instead.`);
    }
    await refuseOverlappingCode(tx, values, id);
    const targetsBefore = await currentTargets(tx, id, before.discountType);
    const [after] = await tx.update(discount).set(columnsOf(values)).where(eq(discount.id, id)).returning(discountColumns);
    if (!after) throw new AppError("INTERNAL_SERVER_ERROR", "The discount could not be saved.");
    const change = await applyTargets(tx, id, values);
    const changed = changedColumns(before, after);
    const targetsAfter = change ? [...new Set([...(targetsBefore ?? []).filter((target) => !change.released.includes(target)), ...change.added])] : null;
    const targetsChanged = change !== null && (change.added.length > 0 || change.released.length > 0);
    await logDiscountChange(tx, id, {
      userId,
      previousState: loggedState(before, targetsBefore),
      newState: { ...loggedState(after, targetsAfter), ...(change?.moved.length ? { movedFrom: change.moved } : {}) },
      description:
        changed.length || targetsChanged
          ? `Discount ${id} "${after.name}" changed: ${[...changed, ...(targetsChanged ? ["targets"] : [])].join(", ")}${targetWords(after.discountType, change)}`
          : `Discount ${id} "${after.name}" saved without changes`,
    });
  });
  return getDiscount(db, id, now);
}

/** The active switch: a discount switched off applies nowhere until it is switched on again; logged. */
export async function setDiscountActive(db: Db, id: number, active: boolean, userId: string, now: Date = new Date()): Promise<DiscountDetail> {
  await db.transaction(async (tx) => {
    const before: DiscountState = await lockExistingRow(tx, discount, id, discountColumns, "Discount");
    if (before.active === active) return;
    await tx.update(discount).set({ active }).where(eq(discount.id, id));
    await logDiscountChange(tx, id, {
      userId,
      previousState: { active: before.active },
      newState: { active },
      description: `Discount ${id} "${before.name}" switched ${active ? "on" : "off"}`,
    });
  });
  return getDiscount(db, id, now);
}
