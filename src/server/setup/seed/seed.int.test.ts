import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Decimal } from "decimal.js";
import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "@/server/db/schema";
import { createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { createTestDatabase, queryRows, type TestDatabase } from "../../../../tests/helpers/test-database";
import { seedDatabase, seedIfEmpty } from "./seed";

let t: TestDatabase;
let storageRoot: string;

beforeAll(async () => {
  t = await createTestDatabase();
  storageRoot = mkdtempSync(path.join(os.tmpdir(), "seed-storage-"));
});

afterAll(async () => {
  await t.dispose();
  rmSync(storageRoot, { recursive: true, force: true });
});

describe("demo seed", () => {
  it("seeds an empty database once, with a stock ledger that adds up and pictures in storage", async () => {
    const storage = createSandboxStorage({ root: storageRoot });
    const first = await seedIfEmpty(t.db, storage, { products: 80, images: 3 });
    expect(first?.products).toBe(80);
    expect(await seedIfEmpty(t.db, storage, { products: 80, images: 3 })).toBeNull();

    const mismatched = await t.db
      .select({ id: schema.product.id })
      .from(schema.product)
      .where(sql`${schema.product.stock} <> coalesce((select sum(${schema.stockRecord.quantity}) from ${schema.stockRecord} where ${schema.stockRecord.productId} = ${schema.product.id}), 0)`);
    expect(mismatched).toEqual([]);

    const [descriptions] = await t.db.select({ value: count() }).from(schema.productDescription);
    expect(descriptions?.value).toBe(80);
    const image = await storage.get("products/1/1.webp");
    expect(image?.contentType).toBe("image/webp");
    expect(await storage.get("products/4/1.webp")).toBeNull();
  });

  it("replaces the demo data on a reseed and keeps the demo users", async () => {
    const storage = createSandboxStorage({ root: storageRoot });
    const [before] = await t.db.select({ id: schema.user.id }).from(schema.user).where(eq(schema.user.email, "customer@example.com"));
    await seedDatabase(t.db, storage, { products: 40, images: 0 });
    const [products] = await t.db.select({ value: count() }).from(schema.product);
    expect(products?.value).toBe(40);
    const [after] = await t.db.select({ id: schema.user.id, discountId: schema.user.discountId }).from(schema.user).where(eq(schema.user.email, "customer@example.com"));
    expect(after?.id).toBe(before?.id);
    expect(after?.discountId).not.toBeNull();
    // New rows continue after the ids the seed wrote itself.
    const [created] = await t.db.insert(schema.product).values({ name: "Test crown", price: new Decimal("1.00") }).returning({ id: schema.product.id });
    expect(created?.id).toBe(41);
  });

  it("adds a bulk order history on request whose totals and stock ledger add up, numbered before the demo's orders", async () => {
    const storage = createSandboxStorage({ root: storageRoot });
    const summary = await seedDatabase(t.db, storage, { products: 60, images: 0, orders: 3000 });
    const [orders] = await t.db.select({ value: count() }).from(schema.order);
    expect(orders?.value).toBe(summary.orders);
    expect(summary.orders).toBeGreaterThan(3000);

    // Every history order has one address, detail and payment, at least one line, and totals as orderTotals adds them.
    const [mismatch] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from "order" o
          join payment_detail p on p.order_id = o.id
          join order_detail d on d.order_id = o.id
          join order_address a on a.order_id = o.id
          join (select order_id, sum(total_price) as paid, sum(total_discount_amount) as discount from order_item group by order_id) i on i.order_id = o.id
          where o.id <= 3000 and (p.item_total <> i.paid + i.discount or p.item_total_discount_amount <> i.discount
            or p.total <> i.paid + p.shipping_total or p.shipping_total <= coalesce(p.additional_shipping_fees, 0))`,
    );
    const [complete] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from "order" o where o.id <= 3000 and exists (select 1 from payment_detail p where p.order_id = o.id)
          and exists (select 1 from order_detail d where d.order_id = o.id) and exists (select 1 from order_address a where a.order_id = o.id)`,
    );
    expect([mismatch?.n, complete?.n]).toEqual([0, 3000]);

    const drift = await t.db
      .select({ id: schema.product.id })
      .from(schema.product)
      .where(sql`${schema.product.stock} <> coalesce((select sum(${schema.stockRecord.quantity}) from ${schema.stockRecord} where ${schema.stockRecord.productId} = ${schema.product.id}), 0)`);
    expect(drift).toEqual([]);
    // The cost lots, recorded for the bulk history and then as the demo's orders took their pieces, hold the stock, and
    // every sold history line has what it took recorded.
    const [lots] = await queryRows<{ drifting: number; uncosted: number }>(
      t.db,
      sql`select (select count(*)::int from product p where p.stock <> coalesce((select sum(l.pieces_left) from stock_lot l where l.product_id = p.id), 0)) as drifting,
            (select count(*)::int from order_item i join "order" o on o.id = i.order_id
             where o.id <= 3000 and o.status not in ('PENDING', 'CANCELLED') and not exists (select 1 from stock_record_cost c where c.order_item_id = i.id)) as uncosted`,
    );
    expect(lots).toEqual({ drifting: 0, uncosted: 0 });

    // Shipped or cancelled, but for the last two days' orders, which may still be open (unpaid only in the last hour).
    const [statuses] = await queryRows<{ shipped: number; cancelled: number; stale: number }>(
      t.db,
      sql`select count(*) filter (where status = 'SHIPPED')::int as shipped, count(*) filter (where status = 'CANCELLED')::int as cancelled,
            count(*) filter (where (status not in ('SHIPPED', 'CANCELLED') and created_at < now() - interval '2 days')
              or (status = 'PENDING' and created_at < now() - interval '1 hour'))::int as stale
          from "order" where id <= 3000`,
    );
    expect(statuses!.shipped).toBeGreaterThan(2500);
    expect(statuses!.cancelled).toBeGreaterThan(50);
    expect(statuses!.stale).toBe(0);
    const [numbers] = await queryRows<{ distinct: number; last: string }>(
      t.db,
      sql`select count(distinct order_number)::int as distinct, max(right(order_number, 6)) as last from "order"`,
    );
    expect(numbers).toEqual({ distinct: summary.orders, last: String(summary.orders).padStart(6, "0") });
  });
});
