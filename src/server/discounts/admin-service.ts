import "server-only";
import { Decimal } from "decimal.js";
import { and, asc, count, desc, eq, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import { catalogueChanged } from "@/server/cache/catalogue";
import type { Db } from "@/server/db/client";
import { lockExistingRow } from "@/server/db/lock-row";
import { discount, order, orderDiscount, orderItem, product, productCategory, productManufacturer, user } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { logChange, type LogChange } from "@/server/logbook/service";
import {
  formatShopDateTime,
  type DiscountDetail,
  type DiscountFormValues,
  type DiscountGroupChoice,
  type DiscountListInput,
  type DiscountRow,
  type DiscountTargetChoices,
  type DiscountTargetPreview,
  type DiscountTargetPreviewQuery,
} from "./admin-schemas";
import { formatDiscountValue } from "./discount-price";
import { discountStatus } from "./in-force";
import { countedOrder, discountColumns } from "./service";

/**
 * Staff's discounts (`admin.discounts.*`): the four kinds, their windows in the shop's time zone, the active switch,
 * and which products (PRODUCT) or customers (USER) hold them. Every change is logged (event and entity DISCOUNT)
 * with the state before and after, in the transaction that makes it.
 *
 * The storefront reads prices and discounts from the database on every request (its pages are dynamic and no data
 * cache stands in front of the catalogue), so a saved change shows in the shop at once: there is nothing to
 * invalidate here. Should the catalogue ever cache, this is where a change must clear it.
 */

type DiscountTargets = Pick<DiscountFormValues, "discountType" | "productIds" | "categoryIds" | "manufacturerIds" | "customerIds" | "allVips">;

/** Updates of many rows go in slices, so that no statement carries more parameters than PostgreSQL takes. */
const SLICE = 1000;

function slices<T>(values: T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < values.length; start += SLICE) result.push(values.slice(start, start + SLICE));
  return result;
}

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
// Targets: which products or customers hold a discount
// ---------------------------------------------------------------------------------------------------------------

/** The groups asked for and every group below them in their tree; an unknown id is refused. */
async function withDescendants(db: Db, table: typeof productCategory | typeof productManufacturer, roots: number[], what: string): Promise<number[]> {
  if (roots.length === 0) return [];
  const rows = await db.select({ id: table.id, parentId: table.parentId }).from(table);
  const children = new Map<number, number[]>();
  for (const row of rows) if (row.parentId !== null) children.set(row.parentId, [...(children.get(row.parentId) ?? []), row.id]);
  const known = new Set(rows.map((row) => row.id));
  const unknown = roots.find((id) => !known.has(id));
  if (unknown !== undefined) throw new AppError("BAD_REQUEST", `${what} ${unknown} does not exist.`);
  const found = new Set<number>();
  const queue = [...roots];
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (found.has(id)) continue;
    found.add(id);
    queue.push(...(children.get(id) ?? []));
  }
  return [...found];
}

/** The condition a product or customer meets when the discount's targets name it; null when they name none. */
async function targetCondition(db: Db, targets: DiscountTargets): Promise<SQL | null> {
  if (targets.discountType === "PRODUCT") {
    const [categories, manufacturers] = await Promise.all([
      withDescendants(db, productCategory, targets.categoryIds, "Category"),
      withDescendants(db, productManufacturer, targets.manufacturerIds, "Manufacturer"),
    ]);
    if (targets.productIds.length > 0) {
      const found = await db.select({ id: product.id }).from(product).where(inArray(product.id, targets.productIds));
      const known = new Set(found.map((row) => row.id));
      const unknown = targets.productIds.find((id) => !known.has(id));
      if (unknown !== undefined) throw new AppError("BAD_REQUEST", `Product ${unknown} does not exist.`);
    }
    const parts = [
      targets.productIds.length ? inArray(product.id, targets.productIds) : undefined,
      categories.length ? inArray(product.categoryId, categories) : undefined,
      manufacturers.length ? inArray(product.manufacturerId, manufacturers) : undefined,
    ].filter((part) => part !== undefined);
    return parts.length ? or(...parts)! : null;
  }
  if (targets.discountType === "USER") {
    if (targets.customerIds.length > 0) {
      const found = await db.select({ id: user.id }).from(user).where(inArray(user.id, targets.customerIds));
      const known = new Set(found.map((row) => row.id));
      const unknown = targets.customerIds.find((id) => !known.has(id));
      if (unknown !== undefined) throw new AppError("BAD_REQUEST", "A chosen customer no longer exists; choose the customers again.");
    }
    const parts = [targets.customerIds.length ? inArray(user.id, targets.customerIds) : undefined, targets.allVips ? eq(user.role, "VIP") : undefined].filter(
      (part) => part !== undefined,
    );
    return parts.length ? or(...parts)! : null;
  }
  return null;
}

/** A product's id or a customer's: the rows a PRODUCT or USER discount is held by. */
type TargetId = number | string;

/** Where the targets of a PRODUCT or USER discount hold it: the product's or the customer's own row. */
const holders = {
  PRODUCT: { table: product, id: product.id, discountId: product.discountId },
  USER: { table: user, id: user.id, discountId: user.discountId },
};

/** The rows that hold a PRODUCT or USER discount; null for the kinds without targets. */
function holderOf(discountType: DiscountFormValues["discountType"]) {
  return discountType === "PRODUCT" || discountType === "USER" ? holders[discountType] : null;
}

type TargetRow = { id: TargetId; discountId: number | null; wanted: boolean };

/** What saving targets does: who gets the discount (and from which discount each came), and who loses it. */
type TargetPlan = { total: number; add: TargetRow[]; release: TargetRow[] };

function planOf(rows: TargetRow[], discountId: number | null): TargetPlan {
  return {
    total: rows.filter((row) => row.wanted).length,
    add: rows.filter((row) => row.wanted && row.discountId !== discountId),
    release: rows.filter((row) => !row.wanted && discountId !== null && row.discountId === discountId),
  };
}

/**
 * The products or customers the targets name, and those holding the discount now. Saving locks them (`lock`), in
 * id order, so that two saves moving the same products take turns.
 */
async function readTargets(db: Db, discountId: number | null, targets: DiscountTargets, lock: boolean): Promise<TargetPlan | null> {
  const holder = holderOf(targets.discountType);
  if (!holder) return null;
  const wanted = await targetCondition(db, targets);
  const holding = discountId === null ? undefined : eq(holder.discountId, discountId);
  const where = wanted && holding ? or(wanted, holding) : (wanted ?? holding);
  if (!where) return planOf([], discountId);
  const query = db
    .select({ id: holder.id, discountId: holder.discountId, wanted: sql<boolean>`${wanted ?? sql`false`}`.mapWith(Boolean) })
    .from(holder.table)
    .where(where)
    .orderBy(asc(holder.id));
  return planOf(lock ? await query.for("update") : await query, discountId);
}

/** The discounts that products or customers would be taken from, with how many each loses. */
async function movedFrom(db: Db, rows: TargetRow[]): Promise<DiscountTargetPreview["movedFrom"]> {
  const counts = new Map<number, number>();
  for (const row of rows) if (row.discountId !== null) counts.set(row.discountId, (counts.get(row.discountId) ?? 0) + 1);
  if (counts.size === 0) return [];
  const names = await db.select({ id: discount.id, name: discount.name }).from(discount).where(inArray(discount.id, [...counts.keys()]));
  return names.map((row) => ({ discountId: row.id, name: row.name, count: counts.get(row.id) ?? 0 })).sort((a, b) => b.count - a.count);
}

/** What saving these targets would do, for the form's warning; nothing is changed. */
export async function previewDiscountTargets(db: Db, input: DiscountTargetPreviewQuery): Promise<DiscountTargetPreview> {
  const plan = await readTargets(db, input.id ?? null, input, false);
  if (!plan) return { total: 0, moved: 0, movedFrom: [], released: 0 };
  const moved = plan.add.filter((row) => row.discountId !== null);
  return { total: plan.total, moved: moved.length, movedFrom: await movedFrom(db, moved), released: plan.release.length };
}

/** What a save did to the targets, as the logbook keeps it. */
type TargetChange = { total: number; added: TargetId[]; released: TargetId[]; moved: { id: TargetId; fromDiscountId: number }[] };

/** Gives the discount to the products or customers its targets name, and takes it from those they no longer name. */
async function applyTargets(tx: Db, discountId: number, targets: DiscountTargets): Promise<TargetChange | null> {
  const holder = holderOf(targets.discountType);
  const plan = await readTargets(tx, discountId, targets, true);
  if (!holder || !plan) return null;
  const set = async (ids: TargetId[], value: number | null) => {
    for (const slice of slices(ids)) await tx.update(holder.table).set({ discountId: value }).where(inArray(holder.id, slice as never[]));
  };
  const added = plan.add.map((row) => row.id);
  const released = plan.release.map((row) => row.id);
  await set(added, discountId);
  await set(released, null);
  const moved = plan.add.flatMap((row) => (row.discountId === null ? [] : [{ id: row.id, fromDiscountId: row.discountId }]));
  return { total: plan.total, added, released, moved };
}

/** The product ids or customer ids holding a discount now, for the logbook's previous state. */
async function currentTargets(tx: Db, discountId: number, discountType: DiscountFormValues["discountType"]): Promise<TargetId[] | null> {
  const holder = holderOf(discountType);
  if (!holder) return null;
  return (await tx.select({ id: holder.id }).from(holder.table).where(eq(holder.discountId, discountId)).orderBy(asc(holder.id))).map((row) => row.id);
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

// ---------------------------------------------------------------------------------------------------------------
// The form's choices
// ---------------------------------------------------------------------------------------------------------------

/** Every entry of a tree labelled with its path, parents included: a parent's discount reaches everything below it. */
function pathChoices(rows: { id: number; name: string; parentId: number | null }[]): DiscountGroupChoice[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const path = (row: { name: string; parentId: number | null }, depth = 0): string => {
    const parent = row.parentId === null ? undefined : byId.get(row.parentId);
    return parent && depth < 20 ? `${path(parent, depth + 1)} › ${row.name}` : row.name;
  };
  return rows.map((row) => ({ id: row.id, label: path(row) })).sort((a, b) => a.label.localeCompare(b.label));
}

/** The categories and manufacturers a PRODUCT discount can be given to. */
export async function discountTargetChoices(db: Db): Promise<DiscountTargetChoices> {
  const [categories, manufacturers] = await Promise.all([
    db.select({ id: productCategory.id, name: productCategory.name, parentId: productCategory.parentId }).from(productCategory),
    db.select({ id: productManufacturer.id, name: productManufacturer.name, parentId: productManufacturer.parentId }).from(productManufacturer),
  ]);
  return { categories: pathChoices(categories), manufacturers: pathChoices(manufacturers) };
}
