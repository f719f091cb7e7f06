import { beforeAll, describe, expect, it } from "vitest";
import { addPurchaseRecord, createBox, explodeBox, shipBox } from "@/server/stock/boxes";
import { decideRestock, listRestock, requestRestock, restockCandidates, restockCounts } from "@/server/stock/restock-service";
import { bookStock, correctInventory } from "@/server/stock/service";
import { makeProduct } from "../../../tests/helpers/factories";
import { databaseForFile } from "../../../tests/helpers/test-database";
import { logEntriesFor, makeUser, setExchangeRate } from "../../../tests/helpers/admin-fixtures";

const t = databaseForFile();
let adminId: string;

beforeAll(async () => {
  adminId = (await makeUser(t.db, "ADMIN", "Ada")).id;
  await setExchangeRate(t.db, "60.00");
});

/** A sold-out product whose restock request staff approved. */
async function approvedRequest(name: string) {
  const item = await makeProduct(t.db, { name, stock: 0 });
  const { id } = await requestRestock(t.db, item.id, adminId);
  await decideRestock(t.db, id, "APPROVED", adminId);
  return { productId: item.id, requestId: id };
}

/** A received request put forward again (the rule under test in the last case). */
const requestAgain = (productId: number) => requestRestock(t.db, productId, adminId);

const idsAt = async (status: "PENDING" | "APPROVED" | "RECEIVED") => (await listRestock(t.db, status)).map((row) => row.productId);

// Issue 28, "Approved restock requests never close": they stayed under "Approved - To buy" after the box arrived.
describe("an approved restock request is received when its pieces come into stock", () => {
  it("closes when a box with the product is exploded, logged in the same change", async () => {
    const { productId, requestId } = await approvedRequest("Crown 5.3 mm, gold");
    const { id: boxId } = await createBox(t.db, adminId);
    await addPurchaseRecord(t.db, { boxId, productId, quantity: 4, unitCost: "1.50", currency: "EUR" }, adminId);
    // Added to an open box from the restock manager (the box page's procedure): bought and on its way is not yet
    // received, the request stays to buy with its pieces shown as coming.
    expect((await listRestock(t.db, "APPROVED")).find((row) => row.productId === productId)).toMatchObject({ incoming: 4, stock: 0 });
    await shipBox(t.db, { boxId, trackingNumber: "LX123456789PH", estimatedDeliveryDate: "2030-01-15" }, adminId);
    expect(await idsAt("APPROVED")).toContain(productId);

    await explodeBox(t.db, boxId, adminId);
    expect(await idsAt("APPROVED")).not.toContain(productId);
    expect((await listRestock(t.db, "RECEIVED")).find((row) => row.productId === productId)).toMatchObject({ id: requestId, status: "RECEIVED", stock: 4 });
    const entries = await logEntriesFor(t.db, "PRODUCT", productId);
    expect(entries.find((entry) => entry.description?.startsWith(`Restock request ${requestId} received`))).toMatchObject({
      userId: adminId,
      previousState: { restock: "APPROVED" },
      newState: expect.objectContaining({ restock: "RECEIVED", pieces: 4 }),
    });
  });

  it("closes when a correction adds stock, and not when one takes it away", async () => {
    const { productId } = await approvedRequest("Mainspring 1.20 x 0.10");
    await correctInventory(t.db, { productId, quantity: 3, reason: "OTHER", comment: "Found in the drawer" }, adminId);
    expect(await idsAt("RECEIVED")).toContain(productId);

    const other = await approvedRequest("Mainspring 1.30 x 0.10");
    await correctInventory(t.db, { productId: other.productId, quantity: 2, reason: "OTHER", comment: "Found in the drawer" }, adminId);
    await decideRestock(t.db, (await requestAgain(other.productId)).id, "APPROVED", adminId);
    await correctInventory(t.db, { productId: other.productId, quantity: -1, reason: "DAMAGED" }, adminId);
    expect(await idsAt("APPROVED")).toContain(other.productId);
  });

  it("leaves pending and rejected requests alone, and pieces given back on a refund do not count", async () => {
    const pending = await makeProduct(t.db, { name: "Pusher, chrome", stock: 0 });
    await requestRestock(t.db, pending.id, adminId);
    await correctInventory(t.db, { productId: pending.id, quantity: 1, reason: "OTHER", comment: "Found in the drawer" }, adminId);
    expect(await idsAt("PENDING")).toContain(pending.id);

    const { productId } = await approvedRequest("Pusher, gold");
    await bookStock(t.db, { productId, quantity: 1, type: "REFUND", userId: adminId, description: "Returned" });
    expect(await idsAt("APPROVED")).toContain(productId);
  });

  it("puts a received product forward again as a new pending request when it sells out again", async () => {
    const { productId, requestId } = await approvedRequest("Stem, 0.90 mm");
    await correctInventory(t.db, { productId, quantity: 1, reason: "OTHER", comment: "Found in the drawer" }, adminId);
    // In stock: not a candidate.
    expect((await restockCandidates(t.db)).map((row) => row.productId)).not.toContain(productId);
    await correctInventory(t.db, { productId, quantity: -1, reason: "LOST" }, adminId);
    expect((await restockCandidates(t.db)).map((row) => row.productId)).toContain(productId);

    const again = await requestRestock(t.db, productId, adminId);
    expect(again.id).toBe(requestId);
    expect(await idsAt("PENDING")).toContain(productId);
    expect(await idsAt("RECEIVED")).not.toContain(productId);
    await expect(requestRestock(t.db, productId, adminId)).rejects.toMatchObject({ code: "CONFLICT" });
    expect((await restockCounts(t.db)).PENDING).toBeGreaterThanOrEqual(1);
  });
});
