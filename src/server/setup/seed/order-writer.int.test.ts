import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrderStatus } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import * as schema from "@/server/db/schema";
import { createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { insertOrder } from "@/server/orders/insert-order";
import { transitionOrder } from "@/server/orders/service";
import { createTestDatabase, type TestDatabase } from "../../../../tests/helpers/test-database";
import { seedDatabase } from "./seed";

/*
 * The demo seed writes its orders in bulk (`orders.ts`), not through `insertOrder` and `transitionOrder`, so that a
 * fresh start stays fast. This proves the bulk rows are the shop's own: a seeded order written again through the
 * shop's writers, from the same input, gives the same order, items, address, detail, payment amounts, discounts,
 * ledger rows and status changes in the logbook. Should either writer change, this fails until the other follows.
 */

const now = new Date("2026-03-18T15:30:00Z");
let t: TestDatabase;
let storageRoot: string;

beforeAll(async () => {
  t = await createTestDatabase();
  storageRoot = mkdtempSync(path.join(os.tmpdir(), "seed-writer-"));
  await seedDatabase(t.db, createSandboxStorage({ root: storageRoot }), { images: 0, now });
});

afterAll(async () => {
  await t?.dispose();
  rmSync(storageRoot, { recursive: true, force: true });
});

/** Everything the writers put down for one order, with its own id and number taken out so two orders compare. */
async function writtenRows(db: Db, orderId: number) {
  const [found] = await db.select().from(schema.order).where(eq(schema.order.id, orderId));
  const { orderNumber } = found!;
  const anonymous = (text: string | null) => text?.replaceAll(orderNumber, "<order>").replaceAll(`order ${orderId}`, "order <id>") ?? null;
  const items = await db.select().from(schema.orderItem).where(eq(schema.orderItem.orderId, orderId)).orderBy(asc(schema.orderItem.id));
  const [address] = await db.select().from(schema.orderAddress).where(eq(schema.orderAddress.orderId, orderId));
  const [detail] = await db.select().from(schema.orderDetail).where(eq(schema.orderDetail.orderId, orderId));
  const [payment] = await db.select().from(schema.paymentDetail).where(eq(schema.paymentDetail.orderId, orderId));
  const discounts = await db.select().from(schema.orderDiscount).where(eq(schema.orderDiscount.orderId, orderId)).orderBy(asc(schema.orderDiscount.discountId));
  // Each ledger row with the STOCK_CHANGE entry bookStock writes beside it (who, and in which words).
  const ledger =
    items.length === 0
      ? []
      : await db
          .select({ row: schema.stockRecord, userId: schema.logbook.userId, description: schema.logbook.description })
          .from(schema.stockRecord)
          .leftJoin(schema.logbook, and(eq(schema.logbook.eventType, "STOCK_CHANGE"), sql`(${schema.logbook.newState} ->> 'stockRecordId')::int = ${schema.stockRecord.id}`))
          .where(inArray(schema.stockRecord.orderItemId, items.map((item) => item.id)))
          .orderBy(asc(schema.stockRecord.id));
  // The status changes: entries with a previous status (the placing entry is checkout's, not the order writers').
  const changes = await db
    .select()
    .from(schema.logbook)
    .where(and(eq(schema.logbook.eventType, "ORDER"), eq(schema.logbook.entityType, "ORDER"), eq(schema.logbook.entityId, String(orderId)), sql`${schema.logbook.previousState} ? 'status'`))
    .orderBy(asc(schema.logbook.createdAt), asc(schema.logbook.id));
  const itemIndex = new Map(items.map((item, index) => [item.id, index]));
  return {
    order: { userId: found!.userId, status: found!.status, soldAt: found!.soldAt },
    items: items.map(({ productId, quantity, totalPrice, totalDiscountAmount, priceOverrideReason, oversoldQuantity, marketplaceLineItemId }) => ({
      productId, quantity, totalPrice: totalPrice.toFixed(2), totalDiscountAmount: totalDiscountAmount.toFixed(2), priceOverrideReason, oversoldQuantity, marketplaceLineItemId,
    })),
    address: address && { ...address, id: undefined, orderId: undefined, createdAt: undefined, updatedAt: undefined },
    detail: detail && {
      shop: detail.shop, shippingMethod: detail.shippingMethod, estimatedShippingDate: detail.estimatedShippingDate, estimatedDeliveryDate: detail.estimatedDeliveryDate,
      marketplaceOrderId: detail.marketplaceOrderId, marketplaceBuyer: detail.marketplaceBuyer, oversoldAt: detail.oversoldAt,
    },
    payment: payment && {
      provider: payment.provider, externalPaymentId: payment.externalPaymentId,
      amounts: [payment.itemTotal, payment.itemTotalDiscountAmount, payment.additionalShippingFees, payment.shippingTotal, payment.total].map((amount) => amount?.toFixed(2) ?? null),
    },
    discounts: discounts.map(({ discountId, discountType, name, amount }) => ({ discountId, discountType, name, amount: amount.toFixed(2) })),
    ledger: ledger.map(({ row, userId, description }) => ({ item: itemIndex.get(row.orderItemId!), productId: row.productId, quantity: row.quantity, type: row.type, userId, description: anonymous(description) })),
    changes: changes.map((entry) => ({
      userId: entry.userId, logLevel: entry.logLevel, previousState: entry.previousState, newState: entry.newState, errorData: entry.errorData, description: anonymous(entry.description), at: entry.createdAt,
    })),
  };
}

type Written = Awaited<ReturnType<typeof writtenRows>>;

/**
 * Writes the seeded order again as checkout and the order machine would: `insertOrder` with the seeded order's lines,
 * address, quote, totals and discounts, then each status change through `transitionOrder`, at the moment (which
 * gives `soldAt`), by the person and for the reason the seed's logbook gives. Its pieces are put back in stock first (in the transaction only), as a unique
 * watch sold in the demo has none left.
 */
async function writeAgain(tx: Db, seeded: Written, orderId: number): Promise<number> {
  const [payment] = await tx.select().from(schema.paymentDetail).where(eq(schema.paymentDetail.orderId, orderId));
  const [address] = await tx.select().from(schema.orderAddress).where(eq(schema.orderAddress.orderId, orderId));
  for (const item of seeded.items) {
    await tx.update(schema.product).set({ stock: sql`${schema.product.stock} + ${item.quantity}` }).where(eq(schema.product.id, item.productId));
  }
  const items = await tx.select().from(schema.orderItem).where(eq(schema.orderItem.orderId, orderId)).orderBy(asc(schema.orderItem.id));
  const discounts = await tx.select().from(schema.orderDiscount).where(eq(schema.orderDiscount.orderId, orderId)).orderBy(asc(schema.orderDiscount.discountId));
  const { orderId: again } = await insertOrder(tx, {
    userId: seeded.order.userId,
    bookedBy: seeded.order.userId,
    lines: items.map(({ productId, quantity, totalPrice, totalDiscountAmount }) => ({ productId, quantity, totalPrice, totalDiscountAmount })),
    address: { ...address!, countryCode: address!.countryCode },
    email: address!.email,
    shipping: {
      countryCode: address!.countryCode, countryName: address!.country, regionCode: address!.stateCode, regionName: address!.state,
      method: seeded.detail!.shippingMethod, estimatedShippingDate: seeded.detail!.estimatedShippingDate, estimatedDeliveryDate: seeded.detail!.estimatedDeliveryDate,
    },
    shop: seeded.detail!.shop,
    provider: payment!.provider,
    totals: {
      items: payment!.itemTotal, discount: payment!.itemTotalDiscountAmount, surcharge: payment!.additionalShippingFees!,
      shipping: payment!.shippingTotal.minus(payment!.additionalShippingFees!), total: payment!.total,
    },
    // A seeded use always names its discount (the column is only emptied when a discount is deleted later).
    discounts: discounts.map(({ discountId, discountType, name, amount }) => ({ discountId: discountId!, discountType, name, amount })),
    externalPaymentId: `${payment!.externalPaymentId}-again`,
  });
  for (const change of seeded.changes) {
    const to = (change.newState as { status: OrderStatus }).status;
    const reason = change.description!.slice(change.description!.indexOf(". ") + 2);
    await transitionOrder(tx, again, to, { userId: change.userId, description: reason, now: change.at });
  }
  return again;
}

describe("a seeded order", () => {
  // A coupon is left out: its usage limit would refuse a second use of the same order.
  const cases = [
    { shop: "WEBSHOP", status: "SHIPPED", discounted: true },
    { shop: "WEBSHOP", status: "CANCELLED", discounted: false },
    { shop: "EBAY", status: "SHIPPED", discounted: false },
  ] as const;
  for (const { shop, status, discounted } of cases) {
    it(`is what insertOrder and transitionOrder write for the same input (${shop}, ${status}${discounted ? ", discounted" : ""})`, async () => {
      const [pick] = await t.db
        .select({ id: schema.order.id })
        .from(schema.order)
        .innerJoin(schema.orderDetail, eq(schema.orderDetail.orderId, schema.order.id))
        .where(
          and(
            eq(schema.order.status, status),
            eq(schema.orderDetail.shop, shop),
            sql`not exists (select 1 from order_discount d where d.order_id = ${schema.order.id} and d.discount_type = 'COUPON')`,
            discounted ? sql`exists (select 1 from order_discount d where d.order_id = ${schema.order.id})` : undefined,
          ),
        )
        .orderBy(asc(schema.order.id))
        .limit(1);
      expect(pick, `the demo has such a ${status} order from ${shop}`).toBeDefined();
      const seeded = await writtenRows(t.db, pick!.id);
      expect(seeded.changes.length).toBeGreaterThan(0);
      const rollBack = new Error("roll back");
      await t.db
        .transaction(async (tx) => {
          const again = await writeAgain(tx, seeded, pick!.id);
          const rewritten = await writtenRows(tx, again);
          // The moments differ (the transaction's clock); what was written, by whom and in which words may not.
          const shape = (rows: Written) => ({ ...rows, changes: rows.changes.map(({ at: _at, ...change }) => change) });
          expect(shape({ ...rewritten, payment: { ...rewritten.payment!, externalPaymentId: seeded.payment!.externalPaymentId } })).toEqual(shape(seeded));
          throw rollBack;
        })
        .catch((error: unknown) => {
          if (error !== rollBack) throw error;
        });
    });
  }
});
