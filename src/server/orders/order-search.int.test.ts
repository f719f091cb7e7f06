import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { order } from "@/server/db/schema";
import { createSandboxStorage } from "@/server/integrations/storage/sandbox";
import { seedDatabase } from "@/server/setup/seed/seed";
import { makeStockedProduct, placeGuestOrder } from "../../../tests/helpers/factories";
import { createTestDatabase, type TestDatabase } from "../../../tests/helpers/test-database";
import { orderListInput, type OrderListInput } from "./admin-schemas";
import { foldedText } from "./order-search";
import { listOrders } from "./order-table";

/**
 * The order table's search on a real database: names as people type them (accents, apostrophes, names of several
 * words), and the two ways a search is answered (sorting its few matches, walking the sort's index through its many)
 * finding the same orders, in the same order, with the same count.
 */

const now = new Date("2026-03-04T09:00:00Z");
let t: TestDatabase;
const placed = new Map<string, string>(); // buyer's e-mail → order number

const numbers = async (input: OrderListInput, options: Parameters<typeof listOrders>[2] = {}) =>
  (await listOrders(t.db, orderListInput.parse(input), { now, ...options })).rows.map((row) => row.orderNumber);
const found = async (search: string) => (await numbers({ search })).map((number) => [...placed].find(([, placedNumber]) => placedNumber === number)?.[0]);

const buyers = [
  { email: "juergen@example.com", firstName: "Jürgen", lastName: "Müller", watch: "Seiko 6139 chronograph" },
  { email: "siobhan@example.com", firstName: "Siobhán", lastName: "O'Brien", watch: "Seiko 5 automatic" },
  { email: "anna@example.com", firstName: "Anna", lastName: "de Vries", watch: "Omega Seamaster 300" },
  { email: "chloe@example.com", firstName: "Chloé", lastName: "Lefèvre", watch: "Seiko 6139 Pogue" },
  { email: "sam@example.com", firstName: "Sam", lastName: "Vriesema", watch: "Citizen diver" },
  { email: "lukasz@example.com", firstName: "Łukasz", lastName: "Nørgaard", watch: "Citizen Promaster" },
];

beforeAll(async () => {
  t = await createTestDatabase();
  await seedDatabase(t.db, createSandboxStorage({ root: path.join(os.tmpdir(), `order-search-${process.pid}`) }), { products: 0, images: 0, now });
  let day = 1;
  for (const buyer of buyers) {
    const watch = await makeStockedProduct(t.db, { name: buyer.watch, price: `${100 + day}.00`, stock: 1 });
    const { orderId, orderNumber } = await placeGuestOrder(
      t.db,
      { email: buyer.email, address: { firstName: buyer.firstName, lastName: buyer.lastName }, items: [{ productId: watch.id, quantity: 1 }] },
      now,
    );
    await t.db.update(order).set({ createdAt: new Date(`2026-02-${String(day).padStart(2, "0")}T10:00:00Z`) }).where(eq(order.id, orderId));
    placed.set(buyer.email, orderNumber);
    day += 1;
  }
});

afterAll(async () => {
  await t?.dispose();
});

describe("the order search", () => {
  it("finds a name however it is typed: accents or not, with or without its apostrophe, of one word or several", async () => {
    for (const search of ["Müller", "muller", "MULLER", "mül", "jurgen müller", "Jürgen"]) expect(await found(search), search).toEqual(["juergen@example.com"]);
    for (const search of ["O'Brien", "O’Brien", "obrien", "siobhan", "siobhan o'brien"]) expect(await found(search), search).toEqual(["siobhan@example.com"]);
    for (const search of ["lefevre", "Lefèvre", "chloe lef"]) expect(await found(search), search).toEqual(["chloe@example.com"]);
    for (const search of ["lukasz norgaard", "Łukasz Nørgaard", "nor"]) expect(await found(search), search).toEqual(["lukasz@example.com"]);
    // A name of several words, whole or its start; each word alone starts a name or the e-mail.
    for (const search of ["de vries", "De Vries", "anna de vries", "anna de v", "anna"]) expect(await found(search), search).toEqual(["anna@example.com"]);
    expect(await found("vries")).toEqual(["sam@example.com"]);
    expect(await found("sam vries")).toEqual(["sam@example.com"]);
    // The e-mail by its start, and nothing in the middle of a word.
    expect(await found("juergen")).toEqual(["juergen@example.com"]);
    expect(await found("ller")).toEqual([]);
  });

  it("finds product words and calibers, and nothing for a word no order holds", async () => {
    expect(await found("6139")).toEqual(["chloe@example.com", "juergen@example.com"]);
    expect(await found("seiko")).toEqual(["chloe@example.com", "siobhan@example.com", "juergen@example.com"]);
    expect(await found("seiko pogue")).toEqual(["chloe@example.com"]);
    expect(await found("rolex")).toEqual([]);
    expect(await listOrders(t.db, orderListInput.parse({ search: "zzz" }), { now })).toMatchObject({ rows: [], totalItems: 0, totalIsEstimate: false });
  });

  it("answers alike whether its matches are few enough to sort or so many that it walks the table's sort", async () => {
    const inputs: OrderListInput[] = [
      { search: "seiko" },
      { search: "seiko", direction: "asc" },
      { search: "seiko", sort: "total" },
      { search: "seiko", sort: "number", direction: "asc" },
      { search: "seiko", pageSize: 25, page: 2 },
      { search: "vries", status: "PENDING" },
      { search: "6139", from: "2026-02-02", to: "2026-02-04" },
      { search: "a" },
      { search: "s" },
      { search: "juergen@" },
    ];
    for (const input of inputs) {
      const sorted = await listOrders(t.db, orderListInput.parse(input), { now });
      // Every way counts its matches as many from the second one on.
      const walked = await listOrders(t.db, orderListInput.parse(input), { now, candidates: 1 });
      expect(walked.rows.map((row) => row.orderNumber), JSON.stringify(input)).toEqual(sorted.rows.map((row) => row.orderNumber));
      expect([walked.totalItems, walked.totalIsEstimate], JSON.stringify(input)).toEqual([sorted.totalItems, sorted.totalIsEstimate]);
    }
    expect(await numbers({ search: "seiko" }, { candidates: 1 })).toHaveLength(3);
  });

  it("stops counting a search with more matches than it reads candidates, and says the total is an estimate", async () => {
    const page = await listOrders(t.db, orderListInput.parse({ search: "seiko" }), { now, candidates: 2, exactCountLimit: 2 });
    expect(page.rows.map((row) => row.orderNumber)).toEqual(["chloe@example.com", "siobhan@example.com", "juergen@example.com"].map((email) => placed.get(email)));
    expect(page.totalIsEstimate).toBe(true);
    expect(page.totalItems).toBeGreaterThanOrEqual(3);
  });

  it("folds accents and apostrophes in the words typed as the name indexes fold them", () => {
    expect(["Müller", "LEFÈVRE", "Siobhán", "Łukasz", "Dvořák", "O’Brien"].map(foldedText)).toEqual(["muller", "lefevre", "siobhan", "lukasz", "dvorak", "obrien"]);
  });
});
