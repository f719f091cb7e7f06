import { Decimal } from "decimal.js";
import { and, asc, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logbook, paymentDetail, shippingSurcharge } from "@/server/db/schema";
import { createCaller } from "@/server/root";
import { contextFor, makeUser } from "../../../tests/helpers/admin-fixtures";
import { startPaidOrders } from "../../../tests/helpers/paid-orders";
import { seededDatabaseForFile } from "../../../tests/helpers/seeded-database";
import { updateCountryCostsInput, type SaveSurchargeBandsInput, type SurchargeBandInput, type UpdateCountryCostsInput, type UpdateSurchargeBandInput } from "./costs-schemas";
import { getShippingOptions, quoteShipping } from "./service";

/**
 * Staff set shipping costs on a seeded shop, through the `admin.shippingCosts` procedures: the surcharge bands stay
 * one chain (no overlap, no gap, also when two staff members save at once), every change is logged, and checkout
 * quotes the new figures at once while an order already placed keeps the shipping it was charged.
 */

// Wednesday 4 March 2026, 10:00 in Amsterdam: a shipping day before the cut-off.
const now = new Date("2026-03-04T09:00:00Z");
const t = seededDatabaseForFile({ now });
let staff: { userId: string };
let shippingCosts: ReturnType<typeof createCaller>["admin"]["shippingCosts"];
let paidOrders: Awaited<ReturnType<typeof startPaidOrders>>;

const create = (input: SurchargeBandInput) => shippingCosts.createBand(input);
const update = (input: UpdateSurchargeBandInput) => shippingCosts.updateBand(input);
const remove = (id: number) => shippingCosts.deleteBand({ id });
const save = (input: SaveSurchargeBandsInput) => shippingCosts.saveBands(input);
const updateCountry = (input: UpdateCountryCostsInput) => shippingCosts.updateCountry(input);
const country = (code: string) => shippingCosts.country({ code });
const listSurchargeBands = () => shippingCosts.bands();
const listCountryCosts = (search?: string) => shippingCosts.countries({ search });

/** The bands as staff read them: "min–max at percentage", by minimum. */
async function bands() {
  const list = await listSurchargeBands();
  return list.bands.map((band) => `${band.minPrice.toFixed(2)}–${band.maxPrice.toFixed(2)} ${band.percentage.toFixed(4)}`);
}

async function entries(entityType: "SHIPPING_SURCHARGE" | "COUNTRY" | "REGION") {
  return t.db
    .select({ userId: logbook.userId, eventType: logbook.eventType, entityId: logbook.entityId, description: logbook.description, previousState: logbook.previousState, newState: logbook.newState })
    .from(logbook)
    .where(eq(logbook.entityType, entityType))
    .orderBy(asc(logbook.id));
}

/** The seeded band of a range. */
async function bandId(minPrice: string) {
  const list = await listSurchargeBands();
  return list.bands.find((band) => band.minPrice.toFixed(2) === minPrice)!.id;
}

/** A country's form as it stands, with some fields changed. */
async function countryForm(code: string, changes: Partial<UpdateCountryCostsInput> = {}): Promise<UpdateCountryCostsInput> {
  const current = await country(code);
  return {
    code,
    active: current.active,
    eu: current.eu,
    untrackedCost: current.untrackedCost.toFixed(2),
    tntCost: current.tntCost.toFixed(2),
    untrackedEtaDays: String(current.untrackedEtaDays),
    tntEtaDays: String(current.tntEtaDays),
    maxOrderUntracked: current.maxOrderUntracked.toFixed(2),
    regions: [],
    ...changes,
  };
}

const seeded = ["0.00–100.00 0.0000", "100.00–250.00 0.0200", "250.00–500.00 0.0350", "500.00–999999.99 0.0500"];

beforeAll(async () => {
  const member = await makeUser(t.db, "ADMIN", "Sam Staff");
  staff = { userId: member.id };
  shippingCosts = createCaller(contextFor(t.db, member)).admin.shippingCosts;
  paidOrders = await startPaidOrders(t.db, now);
});

afterAll(() => paidOrders?.close());

describe("surcharge bands", () => {
  it("lists the seeded chain, with nothing wrong with it", async () => {
    const list = await listSurchargeBands();
    expect(await bands()).toEqual(seeded);
    expect(list.problems).toEqual([]);
    expect(list.version).toMatch(/^[0-9a-f]{16}$/);
  });

  it("refuses a band that overlaps another, naming both, and writes nothing", async () => {
    await expect(create({ minPrice: "800", maxPrice: "2000", percentage: "6" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "The surcharge bands cannot be saved: €500.00–€999,999.99 overlaps €800.00–€2,000.00.",
    });
    await expect(update({ id: await bandId("100.00"), minPrice: "100", maxPrice: "300", percentage: "2" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "The surcharge bands cannot be saved: €100.00–€300.00 overlaps €250.00–€500.00.",
    });
    expect(await bands()).toEqual(seeded);
    expect(await entries("SHIPPING_SURCHARGE")).toEqual([]);
  });

  it("refuses a change that leaves a gap, naming what nothing would cover", async () => {
    await expect(update({ id: await bandId("100.00"), minPrice: "100", maxPrice: "200", percentage: "2" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "The surcharge bands cannot be saved: Nothing covers €200.00–€250.00 between two bands; a band starts where the one before it ends.",
    });
    // A band between two others cannot go on its own.
    await expect(remove(await bandId("250.00"))).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("Nothing covers €250.00–€500.00 between two bands") });
    expect(await bands()).toEqual(seeded);
    expect(await entries("SHIPPING_SURCHARGE")).toEqual([]);
  });

  it("saves a valid edit of one band and logs it with the state before and after; checkout charges it at once", async () => {
    const top = await bandId("500.00");
    const saved = await update({ id: top, minPrice: "500", maxPrice: "999999.99", percentage: "4,5" });
    expect(saved.percentage.toFixed(4)).toBe("0.0450");
    const quote = await quoteShipping(t.db, { countryCode: "NL", orderValue: "1000.00", method: "TNT" }, now);
    expect(quote.surcharge.toFixed(2)).toBe("45.00"); // 4.5% of €1,000.00, where the seed charged 5%
    expect(await entries("SHIPPING_SURCHARGE")).toEqual([
      {
        userId: staff.userId,
        eventType: "SHIPPING_COST",
        entityId: String(top),
        description: "Surcharge band €500.00–€999,999.99 at 5% changed to €500.00–€999,999.99 at 4.5%",
        previousState: { minPrice: "500", maxPrice: "999999.99", percentage: "0.05" },
        newState: { minPrice: "500", maxPrice: "999999.99", percentage: "0.045" },
      },
    ]);
    // Saving the same figures again changes and logs nothing.
    await update({ id: top, minPrice: "500.00", maxPrice: "999999.99", percentage: "4.5" });
    expect(await entries("SHIPPING_SURCHARGE")).toHaveLength(1);
  });

  it("moves a boundary between two bands and removes a middle band in one save of the set", async () => {
    const before = await listSurchargeBands();
    const [low, middle, upper, top] = before.bands;
    const form = (band: typeof low) => ({ id: band!.id, minPrice: band!.minPrice.toFixed(2), maxPrice: band!.maxPrice.toFixed(2), percentage: band!.percentage.times(100).toFixed(2) });

    // €250 → €300: one band ends and the next starts there, in the same save.
    const moved = await save({ version: before.version, bands: [form(low), { ...form(middle), maxPrice: "300" }, { ...form(upper), minPrice: "300" }, form(top)] });
    expect(moved.bands.map((band) => `${band.minPrice.toFixed(2)}–${band.maxPrice.toFixed(2)}`)).toEqual(["0.00–100.00", "100.00–300.00", "300.00–500.00", "500.00–999999.99"]);
    expect((await quoteShipping(t.db, { countryCode: "NL", orderValue: "275.00", method: "TNT" }, now)).surcharge.toFixed(2)).toBe("5.50"); // 2%, no longer 3.5%

    // The middle band goes and the one below takes its range over; a new band above the top one is added.
    const merged = await save({
      version: moved.version,
      bands: [form(low), { ...form(upper), minPrice: "100" }, { ...form(top), maxPrice: "5000" }, { minPrice: "5000", maxPrice: "999999.99", percentage: "6" }],
    });
    expect(await bands()).toEqual(["0.00–100.00 0.0000", "100.00–500.00 0.0350", "500.00–5000.00 0.0450", "5000.00–999999.99 0.0600"]);
    expect(merged.problems).toEqual([]);

    const log = (await entries("SHIPPING_SURCHARGE")).slice(1).map((entry) => entry.description);
    expect(log).toEqual([
      "Surcharge band €100.00–€250.00 at 2% changed to €100.00–€300.00 at 2%",
      "Surcharge band €250.00–€500.00 at 3.5% changed to €300.00–€500.00 at 3.5%",
      "Surcharge band €100.00–€300.00 at 2% removed",
      "Surcharge band €300.00–€500.00 at 3.5% changed to €100.00–€500.00 at 3.5%",
      "Surcharge band €500.00–€999,999.99 at 4.5% changed to €500.00–€5,000.00 at 4.5%",
      "Surcharge band €5,000.00–€999,999.99 at 6% added",
    ]);
    const removed = (await entries("SHIPPING_SURCHARGE")).find((entry) => entry.description.endsWith("removed"));
    expect(removed).toMatchObject({ entityId: String(middle!.id), previousState: { minPrice: "100", maxPrice: "300", percentage: "0.02" }, newState: null });
  });

  it("refuses a save started from a set someone else has changed since", async () => {
    const stale = await listSurchargeBands();
    const top = stale.bands.at(-1)!;
    await update({ id: top.id, minPrice: "5000", maxPrice: "999999.99", percentage: "7" });
    const bandsAsRead = stale.bands.map((band) => ({ id: band.id, minPrice: band.minPrice.toFixed(2), maxPrice: band.maxPrice.toFixed(2), percentage: band.percentage.times(100).toFixed(2) }));
    await expect(save({ version: stale.version, bands: bandsAsRead })).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("changed by someone else") });
    expect((await listSurchargeBands()).bands.at(-1)!.percentage.toFixed(4)).toBe("0.0700");
  });

  it("refuses one of two band edits made at once that would overlap together", async () => {
    // Make room above €5,000: the top band goes (the last band may, no gap is left).
    await remove((await listSurchargeBands()).bands.at(-1)!.id);
    const entriesBefore = (await entries("SHIPPING_SURCHARGE")).length;

    // Each of these is valid on its own; both together overlap.
    const results = await Promise.allSettled([
      create({ minPrice: "5000", maxPrice: "10000", percentage: "6" }),
      create({ minPrice: "5000", maxPrice: "20000", percentage: "7" }),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((result) => result.status === "rejected");
    expect(refused?.reason).toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/^The surcharge bands cannot be saved: €5,000\.00–€(10|20),000\.00 overlaps €5,000\.00–€(10|20),000\.00\.$/) });

    expect(await t.db.select({ value: count() }).from(shippingSurcharge).where(eq(shippingSurcharge.minPrice, new Decimal("5000")))).toEqual([{ value: 1 }]);
    expect(await entries("SHIPPING_SURCHARGE")).toHaveLength(entriesBefore + 1);
    expect((await listSurchargeBands()).problems).toEqual([]);
  });
});

describe("countries and regions", () => {
  it("lists countries searched by name or code, with their regions counted", async () => {
    const all = await listCountryCosts();
    expect(all.map((row) => row.code)).toContain("BR");
    const us = (await listCountryCosts("united")).map((row) => [row.code, row.regionCount, row.activeRegionCount]);
    expect(us).toEqual([
      ["GB", 0, 0],
      ["US", 53, 51],
    ]);
    expect((await listCountryCosts("nl")).map((row) => row.code)).toEqual(["NL", "FI"]);
    expect(await listCountryCosts("100%_")).toEqual([]);
  });

  it("changes a country's TNT cost: the next quote charges it, an order already paid keeps what it was charged", async () => {
    // A €300 watch to Amsterdam by TNT: €8.95 postage plus 3.5% of €300.00 (€10.50).
    const paid = await paidOrders.placePaidOrder({ email: "collector@example.com", items: [{ name: "Omega Geneve 1970", price: "300.00" }] });
    const shippingOf = async () => (await t.db.select({ shippingTotal: paymentDetail.shippingTotal }).from(paymentDetail).where(eq(paymentDetail.orderId, paid.orderId)))[0]!.shippingTotal.toFixed(2);
    expect(await shippingOf()).toBe("19.45");

    const saved = await updateCountry(await countryForm("NL", { tntCost: "10,95", tntEtaDays: "2" }));
    expect(saved).toMatchObject({ code: "NL", tntEtaDays: 2 });
    expect(saved.tntCost.toFixed(2)).toBe("10.95");

    const quote = await quoteShipping(t.db, { countryCode: "NL", orderValue: "300.00", method: "TNT" }, now);
    expect([quote.baseCost.toFixed(2), quote.surcharge.toFixed(2), quote.cost.toFixed(2), quote.estimatedDeliveryDate]).toEqual(["10.95", "10.50", "21.45", "2026-03-06"]);
    expect(await shippingOf()).toBe("19.45");

    expect(await entries("COUNTRY")).toEqual([
      {
        userId: staff.userId,
        eventType: "SHIPPING_COST",
        entityId: "NL",
        description: "Shipping to Netherlands (NL) changed: tracked cost €8.95 → €10.95, tracked delivery days 1 → 2",
        previousState: { active: true, eu: true, untrackedCost: "4.5", tntCost: "8.95", untrackedEtaDays: 2, tntEtaDays: 1, maxOrderUntracked: "100" },
        newState: { active: true, eu: true, untrackedCost: "4.5", tntCost: "10.95", untrackedEtaDays: 2, tntEtaDays: 2, maxOrderUntracked: "100" },
      },
    ]);
    // The same form saved again changes and logs nothing.
    await updateCountry(await countryForm("NL"));
    expect(await entries("COUNTRY")).toHaveLength(1);
  });

  it("stops and starts shipping to a country, and to a region, for the next customer", async () => {
    await updateCountry(await countryForm("CH", { active: false }));
    await expect(getShippingOptions(t.db, { countryCode: "CH", orderValue: "40.00" }, now)).rejects.toMatchObject({ message: "We do not ship to Switzerland at the moment" });
    await updateCountry(await countryForm("BR", { active: true }));
    expect((await getShippingOptions(t.db, { countryCode: "BR", orderValue: "40.00" }, now)).countryName).toBe("Brazil");

    // Alaska: its own lower untracked limit cleared (the country's €50.00 applies), and Puerto Rico served.
    const alaska = (value: string) => getShippingOptions(t.db, { countryCode: "US", regionCode: "AK", orderValue: value }, now);
    expect((await alaska("30.00")).options[0]!.available).toBe(false);
    const us = await updateCountry(
      await countryForm("US", {
        regions: [
          { code: "ak", active: true, maxOrderUntracked: "" },
          { code: "PR", active: true, maxOrderUntracked: "20" },
          { code: "NY", active: true, maxOrderUntracked: "" },
        ],
      }),
    );
    expect(us.regions.find((entry) => entry.code === "AK")).toMatchObject({ active: true, maxOrderUntracked: null });
    expect((await alaska("30.00")).maxOrderUntracked.toFixed(2)).toBe("50.00");
    expect((await getShippingOptions(t.db, { countryCode: "US", regionCode: "PR", orderValue: "30.00" }, now)).options[0]!.unavailableReason).toBe(
      "Untracked post to Puerto Rico is only possible for orders up to €20.00; please choose a tracked parcel.",
    );

    const regions = await entries("REGION");
    expect(regions.map((entry) => [entry.entityId, entry.description])).toEqual([
      ["US-AK", "Shipping to Alaska (US-AK) changed: untracked up to €25.00 → same as United States"],
      ["US-PR", "Shipping to Puerto Rico (US-PR) changed: shipped to no → yes, untracked up to same as United States → €20.00"],
    ]);
    expect(regions[1]).toMatchObject({ previousState: { active: false, maxOrderUntracked: null }, newState: { active: true, maxOrderUntracked: "20" } });
    expect((await entries("COUNTRY")).map((entry) => entry.description)).toEqual(
      expect.arrayContaining(["Shipping to Switzerland (CH) changed: shipped to yes → no", "Shipping to Brazil (BR) changed: shipped to no → yes"]),
    );
  });

  it("refuses what the form would not send, and regions of another country, each with a clear reason", async () => {
    const refusal = updateCountryCostsInput.safeParse(await countryForm("DE", { tntCost: "-1", untrackedEtaDays: "0", tntEtaDays: "2.5", maxOrderUntracked: "" }));
    expect(refusal.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["tntCost", "must be an amount in euros, like 49.95"],
      ["untrackedEtaDays", "must be from 1 to 90 days"],
      ["tntEtaDays", "must be a whole number of days"],
      ["maxOrderUntracked", "must be an amount in euros, like 49.95"],
    ]);
    expect(updateCountryCostsInput.safeParse(await countryForm("DE", { tntEtaDays: "91" })).error?.issues[0]?.message).toBe("must be from 1 to 90 days");

    await expect(updateCountry(await countryForm("CA", { regions: [{ code: "NY", active: false, maxOrderUntracked: "" }] }))).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "NY is not a state or province of Canada.",
    });
    await expect(updateCountry({ ...(await countryForm("DE")), code: "XX" })).rejects.toMatchObject({ code: "NOT_FOUND", message: "We do not know the country code XX." });
    expect((await country("US")).regions.find((entry) => entry.code === "NY")!.active).toBe(true);
    expect(await t.db.select({ value: count() }).from(logbook).where(and(eq(logbook.entityType, "COUNTRY"), eq(logbook.entityId, "DE")))).toEqual([{ value: 0 }]);
  });
});
