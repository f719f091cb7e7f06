import "server-only";
import { createHash } from "node:crypto";
import type { Decimal } from "decimal.js";
import { and, asc, count, desc, eq, ilike, inArray, or, sql } from "drizzle-orm";
import { formatEuro } from "@/lib/money";
import type { SurchargeBand } from "@/lib/surcharge";
import type { Db } from "@/server/db/client";
import { country, region, shippingSurcharge } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { escapeLike, logChange, type LogChange } from "@/server/logbook/service";
import type {
  AdminCountry,
  AdminCountryRow,
  AdminSurchargeBand,
  CountryCodeValues,
  CountryListValues,
  SaveSurchargeBandsValues,
  SurchargeBandIdValues,
  SurchargeBandList,
  SurchargeBandValues,
  UpdateCountryCostsValues,
  UpdateSurchargeBandValues,
} from "./costs-schemas";
import { bandRange, checkSurchargeBands, describeBandProblems, percentOf } from "./surcharge-bands";

/**
 * Shipping costs as staff set them: the surcharge bands (insurance on the order value) and each destination's
 * methods, prices, delivery days and untracked limit. Checkout reads the same tables on every quote (./service.ts
 * keeps no cache), so a change applies to the next quote; an order already placed keeps the shipping it recorded
 * (paymentDetail.shippingTotal), which nothing here touches. Every change is logged (event SHIPPING_COST) in the
 * transaction that makes it. The functions take the values the router parsed with ./costs-schemas.ts.
 */

// Any fixed number: band changes take turns, so each checks the set the last one left. Two staff members adding
// €500–€1,000 and €500–€2,000 at once would each see a valid set on their own; one after the other, the second
// sees the first's band and is refused.
const SURCHARGE_BANDS_LOCK = 80_412_031;

type Actor = { userId: string | null };

type BandValues = SurchargeBand;

// Surcharge bands.

async function readBands(db: Db): Promise<AdminSurchargeBand[]> {
  return db
    .select({ id: shippingSurcharge.id, minPrice: shippingSurcharge.minPrice, maxPrice: shippingSurcharge.maxPrice, percentage: shippingSurcharge.percentage, updatedAt: shippingSurcharge.updatedAt })
    .from(shippingSurcharge)
    .orderBy(asc(shippingSurcharge.minPrice), asc(shippingSurcharge.maxPrice), asc(shippingSurcharge.id));
}

/** A fingerprint of the whole set: any band added, removed or changed gives another. */
function versionOf(bands: readonly AdminSurchargeBand[]): string {
  const text = [...bands]
    .sort((a, b) => a.id - b.id)
    .map((band) => `${band.id}:${band.minPrice.toFixed(2)}:${band.maxPrice.toFixed(2)}:${band.percentage.toFixed(4)}`)
    .join("|");
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

function listOf(bands: AdminSurchargeBand[]): SurchargeBandList {
  return { bands, problems: checkSurchargeBands(bands).map((problem) => problem.message), version: versionOf(bands) };
}

/** The bands by minimum, with what is wrong with them as stored and the version a save starts from. */
export async function listSurchargeBands(db: Db): Promise<SurchargeBandList> {
  return listOf(await readBands(db));
}

const bandState = (band: BandValues) => ({ minPrice: band.minPrice, maxPrice: band.maxPrice, percentage: band.percentage });
const bandText = (band: BandValues) => `${bandRange(band)} at ${percentOf(band.percentage)}`;
const sameBand = (a: BandValues, b: BandValues) => a.minPrice.equals(b.minPrice) && a.maxPrice.equals(b.maxPrice) && a.percentage.equals(b.percentage);

/** What one save does to the set: bands to add, bands to change (by id) and bands to remove (by id). */
type BandPlan = { added: BandValues[]; changed: Map<number, BandValues>; removed: Set<number> };

/**
 * One change to the set of bands: under the lock, the plan is made against the bands as they are now, the set as
 * it would be after it is checked whole, and only then written and logged. Returns the bands added (in plan order)
 * and the whole set as saved.
 */
async function changeSurchargeBands(
  db: Db,
  actor: Actor,
  plan: (current: AdminSurchargeBand[]) => BandPlan,
): Promise<{ inserted: AdminSurchargeBand[]; bands: AdminSurchargeBand[] }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SURCHARGE_BANDS_LOCK})`);
    const current = await readBands(tx);
    const { added, changed, removed } = plan(current);
    const after: BandValues[] = [...current.filter((band) => !removed.has(band.id)).map((band) => changed.get(band.id) ?? band), ...added];
    const problems = checkSurchargeBands(after);
    if (problems.length) throw new AppError("BAD_REQUEST", `The surcharge bands cannot be saved: ${describeBandProblems(problems)}`);

    for (const band of current) {
      if (removed.has(band.id)) {
        await tx.delete(shippingSurcharge).where(eq(shippingSurcharge.id, band.id));
        await logBandChange(tx, actor, band.id, band, null, `Surcharge band ${bandText(band)} removed`);
        continue;
      }
      const next = changed.get(band.id);
      if (!next || sameBand(band, next)) continue;
      await tx.update(shippingSurcharge).set(bandState(next)).where(eq(shippingSurcharge.id, band.id));
      await logBandChange(tx, actor, band.id, band, next, `Surcharge band ${bandText(band)} changed to ${bandText(next)}`);
    }
    const inserted: AdminSurchargeBand[] = [];
    for (const band of added) {
      const [row] = await tx
        .insert(shippingSurcharge)
        .values(bandState(band))
        .returning({ id: shippingSurcharge.id, minPrice: shippingSurcharge.minPrice, maxPrice: shippingSurcharge.maxPrice, percentage: shippingSurcharge.percentage, updatedAt: shippingSurcharge.updatedAt });
      await logBandChange(tx, actor, row!.id, null, band, `Surcharge band ${bandText(band)} added`);
      inserted.push(row!);
    }
    return { inserted, bands: await readBands(tx) };
  });
}

/** A change to the shipping costs in the logbook (event SHIPPING_COST), by the staff member who made it. */
function logCostChange(tx: Db, actor: Actor, change: Omit<LogChange, "userId" | "eventType">) {
  return logChange(tx, { ...change, userId: actor.userId, eventType: "SHIPPING_COST" });
}

function logBandChange(tx: Db, actor: Actor, id: number, previous: BandValues | null, next: BandValues | null, description: string) {
  return logCostChange(tx, actor, { entityType: "SHIPPING_SURCHARGE", entityId: id, previousState: previous && bandState(previous), newState: next && bandState(next), description });
}

function bandIn(current: readonly AdminSurchargeBand[], id: number): AdminSurchargeBand {
  const band = current.find((candidate) => candidate.id === id);
  if (!band) throw new AppError("NOT_FOUND", `Surcharge band ${id} does not exist (any more); reload the list.`);
  return band;
}

const noChange = (): BandPlan => ({ added: [], changed: new Map(), removed: new Set() });

/** Adds a band; refused (BAD_REQUEST, naming the bands) when the set would then overlap or leave a gap. */
export async function createSurchargeBand(db: Db, band: SurchargeBandValues, actor: Actor): Promise<AdminSurchargeBand> {
  const { inserted } = await changeSurchargeBands(db, actor, () => ({ ...noChange(), added: [band] }));
  return inserted[0]!;
}

/** Changes one band's range or percentage; refused as `createSurchargeBand` is. */
export async function updateSurchargeBand(db: Db, input: UpdateSurchargeBandValues, actor: Actor): Promise<AdminSurchargeBand> {
  const { id, ...band } = input;
  const { bands } = await changeSurchargeBands(db, actor, (current) => {
    bandIn(current, id);
    return { ...noChange(), changed: new Map([[id, band]]) };
  });
  return bandIn(bands, id);
}

/** Removes one band; a band between two others cannot go alone (that leaves a gap): save the set instead. */
export async function deleteSurchargeBand(db: Db, { id }: SurchargeBandIdValues, actor: Actor): Promise<{ id: number }> {
  await changeSurchargeBands(db, actor, (current) => {
    bandIn(current, id);
    return { ...noChange(), removed: new Set([id]) };
  });
  return { id };
}

/**
 * Saves the whole set as the manage page edits it, so that a boundary between two bands moves in one save (moving
 * it band by band would pass through an overlap or a gap). Refused (CONFLICT) when the set changed since the page
 * read `version`: the other change is not silently overwritten.
 */
export async function saveSurchargeBands(db: Db, input: SaveSurchargeBandsValues, actor: Actor): Promise<SurchargeBandList> {
  const { bands } = await changeSurchargeBands(db, actor, (current) => {
    if (versionOf(current) !== input.version) {
      throw new AppError("CONFLICT", "The surcharge bands were changed by someone else while you edited them. Reload the page to see their change, then make yours again.");
    }
    const plan = noChange();
    const kept = new Set<number>();
    for (const { id, ...band } of input.bands) {
      if (id === undefined) {
        plan.added.push(band);
        continue;
      }
      bandIn(current, id);
      kept.add(id);
      plan.changed.set(id, band);
    }
    for (const band of current) if (!kept.has(band.id)) plan.removed.add(band.id);
    return plan;
  });
  return listOf(bands);
}

// Countries and regions.

const countryColumns = {
  id: country.id,
  code: country.code,
  name: country.name,
  phoneCode: country.phoneCode,
  active: country.active,
  eu: country.eu,
  untrackedCost: country.untrackedCost,
  tntCost: country.tntCost,
  untrackedEtaDays: country.untrackedEtaDays,
  tntEtaDays: country.tntEtaDays,
  maxOrderUntracked: country.maxOrderUntracked,
};

/** The countries by name, searched by name or code, each with how many of its regions the shop serves. */
export async function listCountryCosts(db: Db, { search }: CountryListValues = {}): Promise<AdminCountryRow[]> {
  const pattern = search ? `%${escapeLike(search)}%` : null;
  return db
    .select({
      ...countryColumns,
      regionCount: count(region.id),
      activeRegionCount: sql<number>`count(${region.id}) filter (where ${region.active})`.mapWith(Number),
    })
    .from(country)
    .leftJoin(region, eq(region.countryId, country.id))
    .where(pattern ? or(ilike(country.name, pattern), ilike(country.code, pattern)) : undefined)
    .groupBy(country.id)
    // A search for a code ("nl") puts that country before the names that merely hold it (Finland).
    .orderBy(...(search ? [desc(sql`${country.code} = ${search.toUpperCase()}`)] : []), asc(country.name));
}

/** One country with its regions, as its edit page shows it. */
export async function getCountryCosts(db: Db, { code }: CountryCodeValues): Promise<AdminCountry> {
  const [found] = await db.select({ ...countryColumns, updatedAt: country.updatedAt }).from(country).where(eq(country.code, code));
  if (!found) throw new AppError("NOT_FOUND", `We do not know the country code ${code}.`);
  const regions = await db
    .select({ id: region.id, code: region.code, name: region.name, active: region.active, maxOrderUntracked: region.maxOrderUntracked })
    .from(region)
    .where(eq(region.countryId, found.id))
    .orderBy(asc(region.name));
  return { ...found, regions, regionCount: regions.length, activeRegionCount: regions.filter((entry) => entry.active).length };
}

/** What staff change of a country: whether it is shipped to, its EU flag and its rates. */
const countryFields = ["active", "eu", "untrackedCost", "tntCost", "untrackedEtaDays", "tntEtaDays", "maxOrderUntracked"] as const satisfies readonly (keyof AdminCountryRow)[];
type CountryValues = Pick<AdminCountryRow, (typeof countryFields)[number]>;

const countryFieldLabels: Record<keyof CountryValues, string> = {
  active: "shipped to",
  eu: "in the EU",
  untrackedCost: "untracked cost",
  tntCost: "tracked cost",
  untrackedEtaDays: "untracked delivery days",
  tntEtaDays: "tracked delivery days",
  maxOrderUntracked: "untracked up to",
};

function shown(value: Decimal | number | boolean | null, otherwise: string): string {
  if (value === null) return otherwise;
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") return String(value);
  return formatEuro(value);
}

const same = (a: Decimal | number | boolean | null, b: Decimal | number | boolean | null) =>
  a === null || b === null || typeof a !== "object" || typeof b !== "object" ? a === b : a.equals(b);

/**
 * Saves a country's shipping and the regions sent with it. Each of them that changed gets its own logbook entry
 * (COUNTRY by country code, REGION as US-AK) with the state before and after; nothing changed writes nothing.
 * The next quote uses the new figures; orders already placed keep what they recorded.
 */
export async function updateCountryCosts(db: Db, input: UpdateCountryCostsValues, actor: Actor): Promise<AdminCountry> {
  await db.transaction(async (tx) => {
    const [found] = await tx.select().from(country).where(eq(country.code, input.code)).for("update");
    if (!found) throw new AppError("NOT_FOUND", `We do not know the country code ${input.code}.`);

    const codes = input.regions.map((entry) => entry.code);
    const twice = codes.find((code, index) => codes.indexOf(code) !== index);
    if (twice) throw new AppError("BAD_REQUEST", `${twice} is sent twice; each state or province once.`);
    const regions = codes.length
      ? await tx.select().from(region).where(and(eq(region.countryId, found.id), inArray(region.code, codes))).for("update")
      : [];

    const previous: CountryValues = Object.fromEntries(countryFields.map((field) => [field, found[field]])) as CountryValues;
    const next: CountryValues = Object.fromEntries(countryFields.map((field) => [field, input[field]])) as CountryValues;
    const changes = countryFields.filter((field) => !same(previous[field], next[field]));
    if (changes.length) {
      await tx.update(country).set(next).where(eq(country.id, found.id));
      await logCostChange(tx, actor, {
        entityType: "COUNTRY",
        entityId: found.code,
        previousState: previous,
        newState: next,
        description: `Shipping to ${found.name} (${found.code}) changed: ${changes.map((field) => `${countryFieldLabels[field]} ${shown(previous[field], "")} → ${shown(next[field], "")}`).join(", ")}`,
      });
    }

    const sameAsCountry = `same as ${found.name}`;
    for (const entry of input.regions) {
      const stored = regions.find((candidate) => candidate.code === entry.code);
      if (!stored) throw new AppError("BAD_REQUEST", `${entry.code} is not a state or province of ${found.name}.`);
      const before = { active: stored.active, maxOrderUntracked: stored.maxOrderUntracked };
      const after = { active: entry.active, maxOrderUntracked: entry.maxOrderUntracked ?? null };
      const regionChanges = [
        ...(before.active === after.active ? [] : [`shipped to ${shown(before.active, "")} → ${shown(after.active, "")}`]),
        ...(same(before.maxOrderUntracked, after.maxOrderUntracked)
          ? []
          : [`untracked up to ${shown(before.maxOrderUntracked, sameAsCountry)} → ${shown(after.maxOrderUntracked, sameAsCountry)}`]),
      ];
      if (regionChanges.length === 0) continue;
      await tx.update(region).set(after).where(eq(region.id, stored.id));
      await logCostChange(tx, actor, {
        entityType: "REGION",
        entityId: `${found.code}-${stored.code}`,
        previousState: before,
        newState: after,
        description: `Shipping to ${stored.name} (${found.code}-${stored.code}) changed: ${regionChanges.join(", ")}`,
      });
    }
  });
  return getCountryCosts(db, { code: input.code });
}
