import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { boxStatuses, type BoxStatus } from "@/lib/enums";
import { AppError } from "@/server/errors";
import { box, inventoryCorrection, logbook, product, stockRecord } from "@/server/db/schema";
import { boxMachine } from "@/server/stock/box-machine";
import { addPurchaseRecord, createBox, explodeBox, getBox, removePurchaseRecord, shipBox, updatePurchaseRecord } from "@/server/stock/boxes";
import { correctInventory, stockHistory } from "@/server/stock/service";
import { makeProduct } from "../../../tests/helpers/factories";
import { databaseForFile } from "../../../tests/helpers/test-database";
import { logEntriesFor, makeUser, setExchangeRate } from "../../../tests/helpers/admin-fixtures";

const t = databaseForFile();
let adminId: string;

beforeAll(async () => {
  adminId = (await makeUser(t.db, "ADMIN", "Ada")).id;
  await setExchangeRate(t.db, "60.00");
});

async function refusal(call: Promise<unknown>): Promise<AppError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected the call to be refused");
}

/** A box in the given state with one purchase of two pieces of a fresh product. */
async function boxIn(status: BoxStatus) {
  const item = await makeProduct(t.db, { name: `Crown for box in ${status}`, stock: 0 });
  const { id } = await createBox(t.db, adminId);
  await addPurchaseRecord(t.db, { boxId: id, productId: item.id, quantity: 2, unitCost: "5.00", currency: "EUR" }, adminId);
  if (status !== "OPEN") await shipBox(t.db, { boxId: id, trackingNumber: "LX123456789PH", estimatedDeliveryDate: "2030-01-15" }, adminId);
  if (status === "EXPLODED") await explodeBox(t.db, id, adminId);
  return { boxId: id, productId: item.id };
}

/** How each target state is reached; OPEN is only ever the state a box is created in. */
const moveTo: Partial<Record<BoxStatus, (boxId: number) => Promise<unknown>>> = {
  SHIPPED: (boxId) => shipBox(t.db, { boxId, trackingNumber: "LX999999999PH", estimatedDeliveryDate: "2030-02-01" }, adminId),
  EXPLODED: (boxId) => explodeBox(t.db, boxId, adminId),
};

type Purchase = { name: string; quantity: number; unitCost: string };
type Product = Awaited<ReturnType<typeof makeProduct>>;

/** A shipped box with one purchase in euros of each fresh product named, none of them in stock yet. */
async function shippedBoxOf<const P extends readonly Purchase[]>(purchases: P) {
  const { id: boxId } = await createBox(t.db, adminId);
  const items: Product[] = [];
  for (const { name, quantity, unitCost } of purchases) {
    const item = await makeProduct(t.db, { name, stock: 0 });
    await addPurchaseRecord(t.db, { boxId, productId: item.id, quantity, unitCost, currency: "EUR" }, adminId);
    items.push(item);
  }
  await moveTo.SHIPPED!(boxId);
  // One product per purchase, in the order given.
  return { boxId, items: items as { -readonly [K in keyof P]: Product } };
}

describe("the box state machine (acceptance point 3)", () => {
  const pairs = boxStatuses.flatMap((from) => boxStatuses.map((to) => ({ from, to, allowed: boxMachine.can(from, to) })));

  it.each(pairs.filter((pair) => pair.to !== "OPEN"))(
    "$from -> $to through the service: allowed $allowed, and a refusal changes nothing",
    async ({ from, to, allowed }) => {
      const { boxId } = await boxIn(from);
      const logBefore = (await logEntriesFor(t.db, "BOX", boxId)).length;
      const move = moveTo[to]!;
      if (allowed) {
        await move(boxId);
        expect((await getBox(t.db, boxId)).status).toBe(to);
        const entries = await logEntriesFor(t.db, "BOX", boxId);
        expect(entries).toHaveLength(logBefore + 1);
        expect(entries.at(-1)).toMatchObject({ previousState: expect.objectContaining({ status: from }), newState: expect.objectContaining({ status: to }) });
      } else {
        const error = await refusal(move(boxId));
        expect(error.code).toBe("CONFLICT");
        expect((await getBox(t.db, boxId)).status).toBe(from);
        expect(await logEntriesFor(t.db, "BOX", boxId)).toHaveLength(logBefore);
      }
    },
  );

  it("refuses to ship an empty box, with PRECONDITION_FAILED", async () => {
    const { id } = await createBox(t.db, adminId);
    const error = await refusal(moveTo.SHIPPED!(id));
    expect(error.code).toBe("PRECONDITION_FAILED");
    expect((await getBox(t.db, id)).status).toBe("OPEN");
  });

  it("lets purchases change only while the box is OPEN", async () => {
    for (const status of ["SHIPPED", "EXPLODED"] as const) {
      const { boxId, productId } = await boxIn(status);
      const [record] = (await getBox(t.db, boxId)).purchaseRecords;
      expect((await refusal(addPurchaseRecord(t.db, { boxId, productId, quantity: 1, unitCost: "1", currency: "EUR" }, adminId))).code).toBe(
        "PRECONDITION_FAILED",
      );
      expect((await refusal(updatePurchaseRecord(t.db, { purchaseRecordId: record!.id, quantity: 9, unitCost: "1", currency: "EUR" }, adminId))).code).toBe(
        "PRECONDITION_FAILED",
      );
      expect((await refusal(removePurchaseRecord(t.db, record!.id, adminId))).code).toBe("PRECONDITION_FAILED");
    }
  });
});

describe("stock from purchase to shelf", () => {
  it("converts costs between euro and peso at the stored rate, both ways", async () => {
    const item = await makeProduct(t.db, { name: "Seiko 6139 movement", stock: 0 });
    const { id: boxId } = await createBox(t.db, adminId);
    await addPurchaseRecord(t.db, { boxId, productId: item.id, quantity: 3, unitCost: "12.50", currency: "EUR" }, adminId);
    await addPurchaseRecord(t.db, { boxId, productId: item.id, quantity: 1, unitCost: "1500", currency: "PHP" }, adminId);
    const detail = await getBox(t.db, boxId);
    expect(detail.purchaseRecords.map((r) => [r.purchaseCostEuro.toFixed(2), r.purchaseCostPhp.toFixed(2)])).toEqual([
      ["12.50", "750.00"],
      ["25.00", "1500.00"],
    ]);
    expect(detail.pieces).toBe(4);
    expect(detail.totalCostEuro.toFixed(2)).toBe("62.50");
  });

  it("exploding a box books every purchase into the ledger and product stock, with logbook entries", async () => {
    const { boxId, items: [a, b] } = await shippedBoxOf([
      { name: "Omega crown", quantity: 2, unitCost: "4" },
      { name: "Sapphire crystal 30 mm", quantity: 5, unitCost: "3" },
    ]);
    await explodeBox(t.db, boxId, adminId);

    const stocks = await t.db.select({ id: product.id, stock: product.stock }).from(product);
    expect(stocks.find((row) => row.id === a.id)?.stock).toBe(2);
    expect(stocks.find((row) => row.id === b.id)?.stock).toBe(5);
    const ledger = await t.db.select().from(stockRecord).where(eq(stockRecord.productId, b.id));
    expect(ledger).toMatchObject([{ type: "PURCHASE_RECORD", quantity: 5 }]);
    const stockLog = await logEntriesFor(t.db, "PRODUCT", b.id);
    expect(stockLog.at(-1)).toMatchObject({ eventType: "STOCK_CHANGE", previousState: { stock: 0 }, newState: expect.objectContaining({ stock: 5 }) });
  });

  it("records DAMAGED, LOST and OTHER corrections through the ledger, and the history adds up", async () => {
    const { productId } = await boxIn("EXPLODED");
    await correctInventory(t.db, { productId, quantity: -1, reason: "DAMAGED", comment: "Crystal cracked in transit" }, adminId);
    await correctInventory(t.db, { productId, quantity: 3, reason: "OTHER", comment: "Found in the parts drawer" }, adminId);
    await correctInventory(t.db, { productId, quantity: -1, reason: "LOST" }, adminId);
    const history = await stockHistory(t.db, productId);
    expect(history.rows.map((row) => [row.type, row.quantity, row.balance, row.correctionReason])).toEqual([
      ["PURCHASE_RECORD", 2, 2, null],
      ["INVENTORY_CORRECTION", -1, 1, "DAMAGED"],
      ["INVENTORY_CORRECTION", 3, 4, "OTHER"],
      ["INVENTORY_CORRECTION", -1, 3, "LOST"],
    ]);
    expect(history.stock).toBe(3);
    expect(history.ledgerSum).toBe(3);
    expect(history.rows[1]).toMatchObject({ correctionComment: "Crystal cracked in transit" });
  });

  it("refuses corrections that make no sense, and stock below zero, leaving no trace", async () => {
    const item = await makeProduct(t.db, { name: "Hirsch strap", stock: 0 });
    const corrections = await t.db.select().from(inventoryCorrection);
    await expect(correctInventory(t.db, { productId: item.id, quantity: 2, reason: "DAMAGED" }, adminId)).rejects.toThrow();
    await expect(correctInventory(t.db, { productId: item.id, quantity: 2, reason: "OTHER" }, adminId)).rejects.toThrow(/Say why/);
    expect((await refusal(correctInventory(t.db, { productId: item.id, quantity: -1, reason: "LOST" }, adminId))).code).toBe("PRECONDITION_FAILED");
    // The correction row was rolled back with the refused ledger row.
    expect(await t.db.select().from(inventoryCorrection)).toHaveLength(corrections.length);
    expect(await t.db.select().from(stockRecord).where(eq(stockRecord.productId, item.id))).toEqual([]);
  });

  it("rolls back a whole explosion when one booking fails: no stock, no ledger, no log, box still SHIPPED", async () => {
    const { boxId, items: [first] } = await shippedBoxOf([
      { name: "Stem, steel", quantity: 2, unitCost: "1" },
      { name: "Tube, gold", quantity: 150, unitCost: "1" },
    ]);
    const logCount = (await t.db.select().from(logbook)).length;
    // A database failure on the second booking, after the first one was written in the same transaction.
    await t.db.execute(sql`alter table product add constraint test_stock_cap check (stock < 100) not valid`);
    try {
      await expect(explodeBox(t.db, boxId, adminId)).rejects.toThrow();
    } finally {
      await t.db.execute(sql`alter table product drop constraint test_stock_cap`);
    }
    expect((await t.db.select().from(box).where(eq(box.id, boxId)))[0]?.status).toBe("SHIPPED");
    expect((await t.db.select().from(product).where(eq(product.id, first.id)))[0]?.stock).toBe(0);
    expect(await t.db.select().from(stockRecord).where(eq(stockRecord.productId, first.id))).toEqual([]);
    expect((await t.db.select().from(logbook)).length).toBe(logCount);
  });
});
