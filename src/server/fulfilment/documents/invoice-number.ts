import "server-only";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { OrderStatus } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { invoiceCounter, logbook, order, orderDetail } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { logOrderChange } from "@/server/logbook/service";
import { paidOrderStatuses } from "@/server/orders/order-machine";
import { shopDateAndHour } from "@/server/shipping/service";

/** Whether the customer has paid for an order in this status: only those get an invoice (or a packing slip). */
export const isPaid = (status: OrderStatus): boolean => (paidOrderStatuses as readonly string[]).includes(status);

/** `2026-000042`: the year the invoice was made in, shop time, and its number in that year. */
export function formatInvoiceNumber(year: number, sequence: number): string {
  return `${year}-${String(sequence).padStart(6, "0")}`;
}

export type AssignedInvoiceNumber = { invoiceNumber: string; /** When the number was given: the invoice's date. */ invoicedAt: Date };

/**
 * The order's invoice number, given the first time its invoice is made and kept ever after (a re-print shows the same
 * number and date). Numbers run 1, 2, 3... per year in shop time (Europe/Amsterdam), as Dutch law asks of invoices:
 * no gaps, no duplicates.
 *
 * Both hold because the number comes from the year's `invoice_counter` row by one upsert that keeps the row locked
 * until the caller's transaction ends: a second invoice waits for the first to commit and takes the next number, or
 * takes the same one if the first rolled back. The order's own row is locked first, so two requests for the same
 * order give it one number. Runs in the caller's transaction (or a new one), with the logbook entry.
 */
export async function assignInvoiceNumber(tx: Db, orderId: number, actor: { userId: string | null; now?: Date } = { userId: null }): Promise<AssignedInvoiceNumber> {
  return tx.transaction(async (inner) => {
    const [current] = await inner
      .select({ orderNumber: order.orderNumber, status: order.status, invoiceNumber: orderDetail.invoiceNumber })
      .from(order)
      .innerJoin(orderDetail, eq(orderDetail.orderId, order.id))
      .where(eq(order.id, orderId))
      .for("update");
    if (!current) throw new AppError("NOT_FOUND", `Order ${orderId} does not exist.`);
    if (current.invoiceNumber) return { invoiceNumber: current.invoiceNumber, invoicedAt: await invoicedAt(inner, orderId, current.invoiceNumber) };
    if (!isPaid(current.status)) {
      throw new AppError("PRECONDITION_FAILED", `Order ${current.orderNumber} is ${current.status}: only paid orders get an invoice.`);
    }

    const now = actor.now ?? new Date();
    const year = Number(shopDateAndHour(now).date.slice(0, 4));
    const [counter] = await inner
      .insert(invoiceCounter)
      .values({ year, lastNumber: 1 })
      .onConflictDoUpdate({ target: invoiceCounter.year, set: { lastNumber: sql`${invoiceCounter.lastNumber} + 1`, updatedAt: now } })
      .returning({ lastNumber: invoiceCounter.lastNumber });
    const invoiceNumber = formatInvoiceNumber(year, counter!.lastNumber);
    await inner.update(orderDetail).set({ invoiceNumber }).where(eq(orderDetail.orderId, orderId));
    await logOrderChange(inner, orderId, {
      userId: actor.userId,
      previousState: { invoiceNumber: null },
      newState: { invoiceNumber, invoicedAt: now },
      description: `Invoice ${invoiceNumber} made for order ${current.orderNumber}`,
    });
    return { invoiceNumber, invoicedAt: now };
  });
}

/** An order's invoice as `assignInvoiceNumbers` made it, and whether this call made it or it was there already. */
export type OrderInvoice = AssignedInvoiceNumber & { orderId: number; made: boolean };

/**
 * Gives each of the orders without an invoice number its number, in the order given (print order), in one
 * transaction; orders numbered before keep theirs. Staff do this by "Make invoices", never by printing: a number is
 * for good, so it is given only by a request that says so (SECURITY-REVIEW N-L1).
 *
 * All the orders are locked first, in id order, before the first number is taken: two calls for the same orders in
 * different orders then queue behind each other instead of each holding an order the other waits for while one holds
 * the year's counter. The second finds the numbers the first gave, so each order gets one, and the year no gap.
 */
export async function assignInvoiceNumbers(db: Db, orderIds: readonly number[], actor: { userId: string | null; now?: Date }): Promise<OrderInvoice[]> {
  return db.transaction(async (tx) => {
    const locked = await tx
      .select({ orderId: order.id, invoiceNumber: orderDetail.invoiceNumber })
      .from(order)
      .innerJoin(orderDetail, eq(orderDetail.orderId, order.id))
      .where(inArray(order.id, [...orderIds]))
      .orderBy(asc(order.id))
      .for("update");
    const numberedBefore = new Set(locked.filter((row) => row.invoiceNumber !== null).map((row) => row.orderId));
    const invoices: OrderInvoice[] = [];
    for (const orderId of orderIds) invoices.push({ orderId, ...(await assignInvoiceNumber(tx, orderId, actor)), made: !numberedBefore.has(orderId) });
    return invoices;
  });
}

/** The order's invoice number and date; null when no invoice has been made for it yet. Reads only. */
export async function readInvoiceNumber(db: Db, orderId: number): Promise<AssignedInvoiceNumber | null> {
  const [row] = await db.select({ invoiceNumber: orderDetail.invoiceNumber }).from(orderDetail).where(eq(orderDetail.orderId, orderId));
  if (!row?.invoiceNumber) return null;
  return { invoiceNumber: row.invoiceNumber, invoicedAt: await invoicedAt(db, orderId, row.invoiceNumber) };
}

/**
 * When an invoice number was given, from the logbook entry written with it (the entry's `newState.invoicedAt`).
 * The entry is written in the same transaction as the number, so it is always there.
 */
async function invoicedAt(db: Db, orderId: number, invoiceNumber: string): Promise<Date> {
  const [entry] = await db
    .select({ invoicedAt: sql<string>`${logbook.newState} ->> 'invoicedAt'` })
    .from(logbook)
    .where(
      and(
        eq(logbook.entityType, "ORDER"),
        eq(logbook.entityId, String(orderId)),
        sql`${logbook.newState} @> ${JSON.stringify({ invoiceNumber })}::jsonb`,
      ),
    )
    .limit(1);
  if (!entry) throw new Error(`The logbook has no entry for invoice ${invoiceNumber} of order ${orderId}`);
  return new Date(entry.invoicedAt);
}
