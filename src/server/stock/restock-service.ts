import "server-only";
import { Decimal } from "decimal.js";
import { and, asc, desc, eq, ne, notExists, sql } from "drizzle-orm";
import type { RestockStatus } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { lockExistingRow } from "@/server/db/lock-row";
import { product, productRestockManager, purchaseRecord } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { restockMachine } from "./restock-machine";
import { incomingPieces } from "./service";
import type { RestockCandidate, RestockRow } from "./schemas";
import { logProductChange } from "@/server/logbook/service";

const lastUnitCost = sql<string | null>`(
  select ${purchaseRecord.purchaseCostEuro} from ${purchaseRecord} where ${purchaseRecord.productId} = ${product.id}
  order by ${purchaseRecord.createdAt} desc, ${purchaseRecord.id} desc limit 1)`;

export async function listRestock(db: Db, status: RestockStatus): Promise<RestockRow[]> {
  const rows = await db
    .select({
      id: productRestockManager.id,
      productId: product.id,
      productName: product.name,
      stock: product.stock,
      price: product.price,
      status: productRestockManager.status,
      incoming: incomingPieces,
      lastUnitCostEuro: lastUnitCost,
      updatedAt: productRestockManager.updatedAt,
    })
    .from(productRestockManager)
    .innerJoin(product, eq(product.id, productRestockManager.productId))
    .where(eq(productRestockManager.status, status))
    .orderBy(desc(productRestockManager.updatedAt), desc(productRestockManager.id));
  return rows.map((row) => ({ ...row, lastUnitCostEuro: row.lastUnitCostEuro === null ? null : new Decimal(row.lastUnitCostEuro) }));
}

/**
 * Sold-out products on the web shop that nobody has put forward since they last came into stock, most recently
 * changed first: a product whose request was RECEIVED and that sold out again is a candidate once more.
 */
export async function restockCandidates(db: Db, limit = 50): Promise<RestockCandidate[]> {
  const putForward = db
    .select({ id: productRestockManager.id })
    .from(productRestockManager)
    .where(and(eq(productRestockManager.productId, product.id), ne(productRestockManager.status, "RECEIVED")));
  return db
    .select({ productId: product.id, productName: product.name, price: product.price, updatedAt: product.updatedAt })
    .from(product)
    .where(and(eq(product.stock, 0), eq(product.wsStatus, "ONLINE"), notExists(putForward)))
    .orderBy(desc(product.updatedAt), asc(product.id))
    .limit(limit);
}

/**
 * Puts a product forward (PENDING). A product keeps one request row (unique on the product): after its last request
 * was RECEIVED, a new sell-out starts that row over as a new PENDING request; a request still open is refused.
 */
export async function requestRestock(db: Db, productId: number, userId: string): Promise<{ id: number }> {
  return db.transaction(async (tx) => {
    const [target] = await tx.select({ id: product.id, name: product.name }).from(product).where(eq(product.id, productId));
    if (!target) throw new AppError("NOT_FOUND", `Product ${productId} does not exist.`);
    const [earlier] = await tx
      .select({ status: productRestockManager.status })
      .from(productRestockManager)
      .where(eq(productRestockManager.productId, productId))
      .for("update");
    const [row] = await tx
      .insert(productRestockManager)
      .values({ productId, status: "PENDING" })
      .onConflictDoUpdate({
        target: productRestockManager.productId,
        set: { status: "PENDING", updatedAt: new Date() },
        setWhere: eq(productRestockManager.status, "RECEIVED"),
      })
      .returning({ id: productRestockManager.id });
    if (!row) throw new AppError("CONFLICT", `${target.name} is already in the restock manager.`);
    await logProductChange(tx, productId, {
      userId,
      previousState: earlier ? { restock: earlier.status } : undefined,
      newState: { restock: "PENDING" },
      description: `Restock of ${target.name} requested`,
    });
    return { id: row.id };
  });
}

/** The restock machine's one transition function. */
export async function decideRestock(db: Db, id: number, status: RestockStatus, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await lockExistingRow(tx, productRestockManager, id, { status: productRestockManager.status, productId: productRestockManager.productId }, "Restock request");
    restockMachine.assert(id, current.status, status);
    await tx.update(productRestockManager).set({ status }).where(eq(productRestockManager.id, id));
    await logProductChange(tx, current.productId, {
      userId,
      previousState: { restock: current.status },
      newState: { restock: status },
      description: `Restock request ${id} ${status.toLowerCase()}`,
    });
  });
}

/** How many requests wait in each state. */
export async function restockCounts(db: Db): Promise<Record<RestockStatus, number>> {
  const rows = await db
    .select({ status: productRestockManager.status, value: sql<number>`count(*)`.mapWith(Number) })
    .from(productRestockManager)
    .groupBy(productRestockManager.status);
  const of = (status: RestockStatus) => rows.find((row) => row.status === status)?.value ?? 0;
  return { PENDING: of("PENDING"), APPROVED: of("APPROVED"), REJECTED: of("REJECTED"), RECEIVED: of("RECEIVED") };
}
