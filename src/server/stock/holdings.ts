import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";

/*
 * What the lots hold per category of their product and box of their purchase (`stock_holding`, 0 for none): the
 * pieces they brought in, the pieces left and what those cost in euro and peso, the pieces left of unknown cost, and
 * the pieces corrections wrote off. Every change to a lot (cost-layers.ts: a lot made, its pieces taken or given back)
 * and every move of a product to another category (`moveHoldings`) writes its difference, in its own transaction, as
 * rows of `stock_holding_change`: inserted, never updated, so that checkouts of pieces of the same category and box
 * neither queue on one row nor, each touching several, deadlock. The `stock-holding-fold` job adds them into
 * `stock_holding` every minute (`foldHoldingChanges`); `readHoldings` adds up both, so a report is right to the
 * second and reads a few hundred rows, not every lot.
 */

const columns = sql.raw(
  "category_id, box_id, pieces_bought, pieces_left, cost_left_euro, cost_left_php, unknown_cost_pieces_left, pieces_written_off",
);

const sums = sql.raw(
  "sum(pieces_bought)::int, sum(pieces_left)::int, sum(cost_left_euro), sum(cost_left_php), sum(unknown_cost_pieces_left)::int, sum(pieces_written_off)::int",
);

const added = sql.raw(
  ["pieces_bought", "pieces_left", "cost_left_euro", "cost_left_php", "unknown_cost_pieces_left", "pieces_written_off"]
    .map((column) => `${column} = stock_holding.${column} + excluded.${column}`)
    .concat("updated_at = now()")
    .join(", "),
);

/** Writes `rows` (a query of the columns above, in their order, any number per key) as changes, one per key. */
async function addToHoldings(tx: Db, rows: SQL): Promise<void> {
  await tx.execute(sql`
    insert into stock_holding_change (${columns})
    select category_id, box_id, ${sums} from (${rows}) h (${columns}) group by 1, 2`);
}

/**
 * Adds the changes written so far into the holdings and deletes them, in one statement: a change committed meanwhile
 * waits for the next fold, and one a concurrent fold took is not added twice. The holdings' rows are taken in their
 * key's order, so two folds wait for each other, never in a circle.
 */
export async function foldHoldingChanges(db: Db): Promise<{ changes: number }> {
  const [folded] = await rawRows<{ changes: number }>(
    db,
    sql`with moved as (delete from stock_holding_change returning ${columns}),
        written as (
          insert into stock_holding (${columns})
          select category_id, box_id, ${sums} from moved group by 1, 2 order by 1, 2
          on conflict (category_id, box_id) do update set ${added}
        )
        select count(*)::int as changes from moved`,
  );
  return { changes: folded?.changes ?? 0 };
}

/**
 * What the lots hold now, the holdings with the changes not yet folded into them, added up per category, per box or
 * per both (`by`; nothing: in total): a query of those keys and the figures, named as the table's columns. The
 * database adds them up: a shop that buys in boxes holds tens of thousands of category-box pairs.
 */
export function currentHoldings(by: readonly ("category_id" | "box_id")[]): SQL {
  const keys = sql.raw(by.map((key) => `${key}, `).join(""));
  const grouped = by.length > 0 ? sql.raw(`group by ${by.join(", ")}`) : sql``;
  return sql`
    select ${keys}${sql.raw(
      [
        "coalesce(sum(pieces_bought), 0)::int as pieces_bought",
        "coalesce(sum(pieces_left), 0)::int as pieces_left",
        "coalesce(sum(cost_left_euro), 0) as cost_left_euro",
        "coalesce(sum(cost_left_php), 0) as cost_left_php",
        "coalesce(sum(unknown_cost_pieces_left), 0)::int as unknown_cost_pieces_left",
        "coalesce(sum(pieces_written_off), 0)::int as pieces_written_off",
      ].join(", "),
    )}
    from (select ${columns} from stock_holding union all select ${columns} from stock_holding_change) h
    ${grouped}`;
}

/** A lot's category and box (`l`: the lot; `p` its product, `pr` its purchase). */
const group = sql`coalesce(p.category_id, 0), coalesce(pr.box_id, 0)`;
const ofLot = sql`join product p on p.id = l.product_id left join purchase_record pr on pr.id = l.purchase_record_id`;

/** A lot just made: its pieces bought, all of them left. */
export async function holdLot(tx: Db, lotId: number): Promise<void> {
  await addToHoldings(
    tx,
    sql`select ${group}, l.pieces, l.pieces_left, coalesce(l.pieces_left * l.unit_cost_euro, 0), coalesce(l.pieces_left * l.unit_cost_php, 0),
               case when l.unit_cost_euro is null then l.pieces_left else 0 end, 0
        from stock_lot l ${ofLot} where l.id = ${lotId}`,
  );
}

/**
 * Pieces taken from lots (negative) or given back to them (positive), as `lotIds` and `pieces` pair them; `writeOff`
 * when a correction took them (lost, damaged), which the sell-through counts apart from the pieces sold.
 */
export async function holdMovedPieces(tx: Db, moved: { lotIds: string; pieces: string; writeOff: boolean }): Promise<void> {
  await addToHoldings(
    tx,
    sql`select ${group}, 0, m.pieces, coalesce(m.pieces * l.unit_cost_euro, 0), coalesce(m.pieces * l.unit_cost_php, 0),
               case when l.unit_cost_euro is null then m.pieces else 0 end, ${moved.writeOff ? sql`-m.pieces` : sql`0`}
        from unnest(${moved.lotIds}::int[], ${moved.pieces}::int[]) as m(lot_id, pieces) join stock_lot l on l.id = m.lot_id ${ofLot}`,
  );
}

/**
 * What the lots that `which` selects (a condition on `l`) hold, per category and box (`category` the category to
 * count them in, by default their product's): the holding they make from scratch.
 */
function lotsHolding(which: SQL, category: SQL = sql`coalesce(p.category_id, 0)`, sign: SQL = sql`1`): SQL {
  return sql`
    select ${category}, coalesce(pr.box_id, 0), ${sign} * sum(l.pieces), ${sign} * sum(l.pieces_left),
      ${sign} * coalesce(sum(l.pieces_left * l.unit_cost_euro), 0), ${sign} * coalesce(sum(l.pieces_left * l.unit_cost_php), 0),
      ${sign} * coalesce(sum(l.pieces_left) filter (where l.unit_cost_euro is null), 0), ${sign} * coalesce(sum(w.pieces), 0)
    from stock_lot l ${ofLot}
    left join lateral (
      select -sum(c.pieces) as pieces from stock_record_cost c join stock_record r on r.id = c.stock_record_id
      where c.lot_id = l.id and c.order_item_id is null and r.type = 'INVENTORY_CORRECTION'
    ) w on true
    where ${which}
    group by 1, 2`;
}

/**
 * Products moved to another category (null: none), after their rows were locked: what their lots hold leaves the
 * category they were in and joins the new one, box by box.
 */
export async function moveHoldings(tx: Db, moves: readonly { productId: number; from: number | null; to: number | null }[]): Promise<void> {
  for (const move of moves) {
    if ((move.from ?? 0) === (move.to ?? 0)) continue;
    const product = sql`l.product_id = ${move.productId}`;
    await addToHoldings(
      tx,
      sql`${lotsHolding(product, sql`${move.from ?? 0}::int`, sql`-1`)} union all ${lotsHolding(product, sql`${move.to ?? 0}::int`)}`,
    );
  }
}

/**
 * The holdings worked out anew from every lot: after lots were written beside `recordCostLayers` (the one-time
 * backfill of the cost layers, margins/cost-layers-backfill.ts). The migration that made the table filled it with the
 * same query, by hand.
 */
export async function rebuildHoldings(tx: Db): Promise<void> {
  await tx.execute(sql`delete from stock_holding_change`);
  await tx.execute(sql`delete from stock_holding`);
  await addToHoldings(tx, lotsHolding(sql`true`));
  await foldHoldingChanges(tx);
}
