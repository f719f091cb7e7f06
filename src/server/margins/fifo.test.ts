import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { fifoCosts, keptPieces, type FifoLot, type FifoOutflow } from "./fifo";

const day = (n: number) => new Date(Date.UTC(2026, 0, n, 12));

/** A purchase as the stock service stores it: a peso unit price and its euro value at the rate of the day. */
function boughtInPeso(purchaseRecordId: number, bookedAt: Date, pieces: number, php: string, rate: string): FifoLot {
  return { purchaseRecordId, bookedAt, pieces, unitCostPhp: new Decimal(php), unitCostEuro: new Decimal(php).dividedBy(rate).toDecimalPlaces(2) };
}

const sale = (id: number, at: Date, pieces: number, restockedPieces = 0): FifoOutflow => ({ kind: "SALE", id, at, pieces, restockedPieces });

/** Each outflow's id with its kept pieces, euro and peso cost and pieces of unknown cost. */
function summary(lots: FifoLot[], outflows: FifoOutflow[], consumedBefore?: number) {
  return fifoCosts(lots, outflows, { consumedBefore }).map((cost) => [cost.id, cost.pieces, cost.costEuro.toFixed(2), cost.costPhp.toFixed(2), cost.unknownCostPieces]);
}

// Box 1 bought in peso at 60 pesos to the euro (₱600 a piece: €10.00), box 2 three weeks later at 65 (₱715: €11.00).
const box1 = boughtInPeso(11, day(1), 3, "600.00", "60");
const box2 = boughtInPeso(12, day(20), 3, "715.00", "65");

describe("FIFO purchase cost", () => {
  it("takes the oldest box's pieces first and carries on into the next box at its own rate", () => {
    expect(box1.unitCostEuro.toFixed(2)).toBe("10.00");
    expect(box2.unitCostEuro.toFixed(2)).toBe("11.00");
    // Given in no particular order: the rule sorts purchases by booking and sales by when they were paid.
    const costs = fifoCosts([box2, box1], [sale(3, day(25), 1), sale(1, day(21), 2), sale(2, day(22), 2)]);
    expect(costs.map((cost) => [cost.id, cost.costEuro.toFixed(2), cost.costPhp.toFixed(2), cost.takenFrom])).toEqual([
      [1, "20.00", "1200.00", [{ purchaseRecordId: 11, pieces: 2 }]],
      // The pieces of one sale span both boxes: one at €10.00 (₱600), one at €11.00 (₱715).
      [2, "21.00", "1315.00", [{ purchaseRecordId: 11, pieces: 1 }, { purchaseRecordId: 12, pieces: 1 }]],
      [3, "11.00", "715.00", [{ purchaseRecordId: 12, pieces: 1 }]],
    ]);
  });

  it("counts pieces sold after the pool ran dry as of unknown cost, without inventing one", () => {
    expect(summary([box1], [sale(1, day(2), 2), sale(2, day(3), 3), sale(3, day(4), 1)])).toEqual([
      [1, 2, "20.00", "1200.00", 0],
      [2, 3, "10.00", "600.00", 2],
      [3, 1, "0.00", "0.00", 1],
    ]);
    expect(summary([], [sale(1, day(2), 1)])).toEqual([[1, 1, "0.00", "0.00", 1]]);
  });

  it("charges a line only for the pieces kept: restocked pieces give their cost back and the next sale takes them", () => {
    const one = (id: number, bookedAt: Date, php: string, rate: string) => boughtInPeso(id, bookedAt, 1, php, rate);
    const lots = [one(11, day(1), "600.00", "60"), one(12, day(20), "715.00", "65")];
    // The first buyer returned their piece and it went back on the shelf: it is the oldest piece again.
    expect(summary(lots, [sale(1, day(21), 1, 1), sale(2, day(22), 1)])).toEqual([
      [1, 0, "0.00", "0.00", 0],
      [2, 1, "10.00", "600.00", 0],
    ]);
    const [returned] = fifoCosts(lots, [sale(1, day(21), 2, 1)]);
    expect([returned!.pieces, returned!.restockedPieces, returned!.costEuro.toFixed(2)]).toEqual([1, 1, "10.00"]);
    expect(keptPieces({ pieces: 2, restockedPieces: 5 })).toBe(0);
  });

  it("lets a written-off piece take its place in the queue, so sales after it take the next one", () => {
    const writeOff: FifoOutflow = { kind: "WRITE_OFF", id: 7, at: day(21), pieces: 3 };
    expect(summary([box1, box2], [sale(1, day(22), 1), writeOff])).toEqual([
      [7, 3, "30.00", "1800.00", 0],
      [1, 1, "11.00", "715.00", 0],
    ]);
  });

  it("gives the same costs when told how many pieces earlier outflows took, as a window of the history needs", () => {
    const outflows = [sale(1, day(21), 2), sale(2, day(22), 2), sale(3, day(23), 1), sale(4, day(24), 3)];
    const whole = summary([box1, box2], outflows);
    expect(summary([box1, box2], outflows.slice(2), 4)).toEqual(whole.slice(2));
    expect(whole.at(-1)).toEqual([4, 3, "11.00", "715.00", 2]);
  });

  it("orders outflows at the same moment by kind and id, so the answer never depends on the rows' order", () => {
    const same = day(21);
    const outflows: FifoOutflow[] = [{ kind: "WRITE_OFF", id: 1, at: same, pieces: 1 }, sale(9, same, 3), sale(8, same, 1)];
    expect(summary([box1, box2], outflows).map((row) => row[0])).toEqual([8, 9, 1]);
    expect(summary([box1, box2], [...outflows].reverse())).toEqual(summary([box1, box2], outflows));
  });
});
