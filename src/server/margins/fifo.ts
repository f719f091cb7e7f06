import { Decimal } from "decimal.js";

/**
 * The purchase cost of pieces that left stock, first bought, first sold, for one product: a pure rule over plain
 * arrays, so that it is tested without a database: the rule of the one-time backfill (cost-layers-backfill.ts), which
 * records the cost of the history written before each piece's cost was recorded as it moved.
 *
 * - The pool is the product's purchases that were booked into stock (their box exploded), oldest booking first, one
 *   box after the other. A purchase's unit cost is the one its record stores, in euro and in peso: the price typed
 *   in one currency and converted at the exchange rate in force when it was entered or last changed while its box
 *   was open (`convertCost` in the stock service): the box's rate. That euro value is what counts as cost.
 * - Pieces leave the pool in the order they left stock for good: a line of a paid order when the order was paid, a
 *   written-off piece (an inventory correction down: damaged, lost) when it was written off. Each takes the oldest
 *   pieces still in the pool, across purchases and boxes.
 * - A piece sold when the pool is empty (more pieces left than were ever bought: stock found or counted in by hand)
 *   has no known cost. It is counted apart, never given an invented one.
 * - Pieces that came back into stock with a refund (`restockedPieces`) count as never sold: they keep their place in
 *   the pool and the line is charged for the pieces the customer kept only. So a restocked refund gives back the
 *   cost of the pieces it returns, and the next sale takes them. A later refund can therefore move the cost of a sale
 *   made after the returned one by the difference between two purchases; the totals stay right, and every piece is
 *   costed once.
 *
 * The order is by position only: the nth piece that left takes the nth piece booked in, even when that purchase was
 * booked after the sale (the ledger does not say where such a piece came from; the purchase that followed is the
 * best account of what it cost).
 */

/** A purchase of the product booked into stock: `pieces` pieces, each at the unit costs the purchase record stores. */
export type FifoLot = {
  purchaseRecordId: number;
  /** When it was booked into stock: its box's arrival. */
  bookedAt: Date;
  pieces: number;
  unitCostEuro: Decimal;
  unitCostPhp: Decimal;
};

/**
 * Pieces that left stock for good. A SALE is a line of a paid order (`id` the order item), at the moment the order was
 * paid, with the pieces a refund put back in stock; a WRITE_OFF an inventory correction down (`id` the correction).
 */
export type FifoOutflow = {
  kind: "SALE" | "WRITE_OFF";
  id: number;
  at: Date;
  pieces: number;
  /** Pieces of a SALE that refunds put back into stock (the ledger's REFUND rows of the line). */
  restockedPieces?: number;
};

/** What the pieces of one outflow cost. */
export type FifoCost = {
  kind: FifoOutflow["kind"];
  id: number;
  /** Pieces that left and stayed out: the line's quantity less the restocked ones. */
  pieces: number;
  restockedPieces: number;
  /** Of `pieces`, those with a known purchase cost, and those taken when the pool was empty. */
  costedPieces: number;
  unknownCostPieces: number;
  costEuro: Decimal;
  costPhp: Decimal;
  /** Which purchases the pieces came from. */
  takenFrom: { purchaseRecordId: number; pieces: number }[];
};

/** Oldest booking first; purchases booked together (one box) by their record's id, the order they were entered in. */
export function compareLots(a: FifoLot, b: FifoLot): number {
  return a.bookedAt.getTime() - b.bookedAt.getTime() || a.purchaseRecordId - b.purchaseRecordId;
}

const kindOrder: Record<FifoOutflow["kind"], number> = { SALE: 0, WRITE_OFF: 1 };

/** In the order the pieces left; at one moment sales before write-offs, each by id. */
export function compareOutflows(a: FifoOutflow, b: FifoOutflow): number {
  return a.at.getTime() - b.at.getTime() || kindOrder[a.kind] - kindOrder[b.kind] || a.id - b.id;
}

/** The pieces of an outflow that stay out of stock: a sale's pieces less those a refund put back, never below zero. */
export function keptPieces(outflow: Pick<FifoOutflow, "pieces" | "restockedPieces">): number {
  return Math.max(0, outflow.pieces - Math.min(outflow.pieces, outflow.restockedPieces ?? 0));
}

/**
 * The cost of each outflow of one product, in the order they left (`compareOutflows`). `consumedBefore` is how many
 * of the pool's pieces earlier outflows took, for a caller that passes only the outflows from some moment on.
 */
export function fifoCosts(lots: readonly FifoLot[], outflows: readonly FifoOutflow[], options: { consumedBefore?: number } = {}): FifoCost[] {
  const pool = lots.filter((lot) => lot.pieces > 0).sort(compareLots);
  let lotIndex = 0;
  /** Pieces already taken from `pool[lotIndex]`. */
  let takenFromLot = 0;
  /** Takes up to `count` of the oldest pieces left in the pool, purchase by purchase; fewer when it runs dry. */
  const take = (count: number) => {
    const slices: { lot: FifoLot; pieces: number }[] = [];
    let left = count;
    while (left > 0 && lotIndex < pool.length) {
      const lot = pool[lotIndex]!;
      const pieces = Math.min(left, lot.pieces - takenFromLot);
      slices.push({ lot, pieces });
      left -= pieces;
      takenFromLot += pieces;
      if (takenFromLot === lot.pieces) {
        lotIndex++;
        takenFromLot = 0;
      }
    }
    return slices;
  };
  take(Math.max(0, options.consumedBefore ?? 0));

  // A dashboard's range costs tens of thousands of lines, most from one purchase: no sums from zero for those.
  const cost = (slices: readonly { lot: FifoLot; pieces: number }[], unitCost: (lot: FifoLot) => Decimal) =>
    slices.length === 1
      ? unitCost(slices[0]!.lot).times(slices[0]!.pieces)
      : slices.reduce((sum, slice) => sum.plus(unitCost(slice.lot).times(slice.pieces)), new Decimal(0));
  const ordered = outflows.length > 1 ? [...outflows].sort(compareOutflows) : outflows;
  return ordered.map((outflow) => {
    const pieces = keptPieces(outflow);
    const slices = take(pieces);
    let costedPieces = 0;
    for (const slice of slices) costedPieces += slice.pieces;
    return {
      kind: outflow.kind,
      id: outflow.id,
      pieces,
      restockedPieces: outflow.pieces - pieces,
      costedPieces,
      unknownCostPieces: pieces - costedPieces,
      costEuro: cost(slices, (lot) => lot.unitCostEuro),
      costPhp: cost(slices, (lot) => lot.unitCostPhp),
      takenFrom: slices.map((slice) => ({ purchaseRecordId: slice.lot.purchaseRecordId, pieces: slice.pieces })),
    };
  });
}
