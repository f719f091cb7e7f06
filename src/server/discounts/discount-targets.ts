import "server-only";
import { asc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { discount, product, productCategory, productManufacturer, user } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import type {
  DiscountFormValues,
  DiscountGroupChoice,
  DiscountTargetChoices,
  DiscountTargetPreview,
  DiscountTargetPreviewQuery,
} from "./admin-schemas";

/**
 * Which products (PRODUCT) or customers (USER) hold a discount: what the form's targets name (categories and
 * manufacturers with all below them, customers, all VIPs), the preview of what saving would change, applying it in
 * the save's transaction, and the choices the form offers. A product or customer holds at most one discount, so a
 * target taken from another discount is moved and said so.
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
export type TargetId = number | string;

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
export type TargetChange = { total: number; added: TargetId[]; released: TargetId[]; moved: { id: TargetId; fromDiscountId: number }[] };

/** Gives the discount to the products or customers its targets name, and takes it from those they no longer name. */
export async function applyTargets(tx: Db, discountId: number, targets: DiscountTargets): Promise<TargetChange | null> {
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
export async function currentTargets(tx: Db, discountId: number, discountType: DiscountFormValues["discountType"]): Promise<TargetId[] | null> {
  const holder = holderOf(discountType);
  if (!holder) return null;
  return (await tx.select({ id: holder.id }).from(holder.table).where(eq(holder.discountId, discountId)).orderBy(asc(holder.id))).map((row) => row.id);
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
