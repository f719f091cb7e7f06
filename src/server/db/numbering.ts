import "server-only";

/**
 * The numbers the shop hands out once and mentions to people: order numbers (the `order_number_seq` sequence) and
 * invoice numbers (the `invoice_counter` row of each year). A restore puts back a database as it was when the backup
 * was made, and with it these counters; numbers given out since (e-mailed to customers, printed on invoices) would
 * then be given out again. So a restore over a database that moved on keeps each counter at the higher of the two,
 * and says which numbers went with the replaced database.
 */
export type HandedOutNumbers = { orders: number; invoices: Record<number, number> };

/** Runs one statement and answers its rows: a pg client's or PGlite's query. */
export type RowsOf = (text: string) => Promise<Record<string, unknown>[]>;

/** The numbers a database has handed out: none where it has no such counter (an empty or older database). */
export async function readHandedOutNumbers(rowsOf: RowsOf): Promise<HandedOutNumbers> {
  const [present] = await rowsOf(
    "select to_regclass('public.order_number_seq') is not null as orders, to_regclass('public.invoice_counter') is not null as invoices",
  );
  let orders = 0;
  const invoices: Record<number, number> = {};
  if (present?.orders === true) {
    const [sequence] = await rowsOf("select case when is_called then last_value else 0 end as n from public.order_number_seq");
    orders = Number(sequence?.n ?? 0);
  }
  if (present?.invoices === true) {
    for (const row of await rowsOf("select year, last_number from public.invoice_counter")) invoices[Number(row.year)] = Number(row.last_number);
  }
  return { orders, invoices };
}

/**
 * SQL that moves each counter up to at least `before`, never down, in a database restored from a backup that may
 * predate a counter. It first reports what the restored database had handed out, as notices
 * (`handedOutFromNotices` reads them back), since by the time it is done the counters no longer say.
 */
export function keepHandedOutNumbersSql(before: HandedOutNumbers): string {
  const invoices = Object.entries(before.invoices).map(([year, lastNumber]) => `(${Number(year)}, ${Number(lastNumber)})`);
  return `set client_min_messages = notice;
do $keep$
declare
  handed bigint;
  counter record;
begin
  if to_regclass('public.order_number_seq') is not null then
    select case when is_called then last_value else 0 end into handed from public.order_number_seq;
    raise notice 'handed-out orders %', handed;
    if handed < ${Number(before.orders)} then perform setval('public.order_number_seq', ${Number(before.orders)}, true); end if;
  end if;
  if to_regclass('public.invoice_counter') is not null then
    for counter in select year, last_number from public.invoice_counter loop
      raise notice 'handed-out invoices % %', counter.year, counter.last_number;
    end loop;
    ${
      invoices.length > 0
        ? `insert into public.invoice_counter (year, last_number) values ${invoices.join(", ")}
      on conflict (year) do update set last_number = greatest(public.invoice_counter.last_number, excluded.last_number);`
        : "null;"
    }
  end if;
end
$keep$;`;
}

/** What `keepHandedOutNumbersSql` reported of the restored database, from the server's notices. */
export function handedOutFromNotices(text: string): HandedOutNumbers {
  const numbers: HandedOutNumbers = { orders: 0, invoices: {} };
  for (const match of text.matchAll(/handed-out orders (\d+)/g)) numbers.orders = Number(match[1]);
  for (const match of text.matchAll(/handed-out invoices (\d+) (\d+)/g)) numbers.invoices[Number(match[1])] = Number(match[2]);
  return numbers;
}

/** The numbers the replaced database had handed out that the restored one had not: given out, and now gone with it. */
export function lostNumbers(before: HandedOutNumbers, restored: HandedOutNumbers): string[] {
  const lost: string[] = [];
  if (before.orders > restored.orders) {
    const from = restored.orders + 1;
    const numbers = from === before.orders ? `order number ${from}` : `order numbers ${from} to ${before.orders}`;
    lost.push(`${numbers} (the last six digits); ${from === before.orders ? "it" : "they"} will not be given out again`);
  }
  for (const [year, lastNumber] of Object.entries(before.invoices)) {
    const from = (restored.invoices[Number(year)] ?? 0) + 1;
    if (from > lastNumber) continue;
    const invoice = (sequence: number) => `${year}-${String(sequence).padStart(6, "0")}`;
    lost.push(
      from === lastNumber
        ? `invoice ${invoice(from)}, which was made and is not in the backup; keep its copy for the books`
        : `invoices ${invoice(from)} to ${invoice(lastNumber)}, which were made and are not in the backup; keep their copies for the books`,
    );
  }
  return lost;
}
