import { describe, expect, it } from "vitest";
import { calibers, genders, itemTypes, productStates } from "@/lib/enums";
import { parseSeedArguments, seedRefusal } from "./arguments";
import { toPgArrayLiteral } from "@/server/db/bulk-insert";
import { drawProductSvg, escapeXml, wrapText } from "./images";
import { generateProduct, priceFor } from "./products";
import { createRandom, randomFor } from "./random";
import { shippingDays } from "./reference-data";

const now = new Date("2025-06-04T10:00:00Z");

describe("seeded random", () => {
  it("repeats itself for the same seed", () => {
    const a = createRandom(7);
    const b = createRandom(7);
    expect(Array.from({ length: 5 }, () => a.next())).toEqual(Array.from({ length: 5 }, () => b.next()));
  });

  it("gives neighbouring products different sequences", () => {
    expect(randomFor(2004, 1).next()).not.toBe(randomFor(2004, 2).next());
  });
});

describe("demo products", () => {
  const catalogue = Array.from({ length: 300 }, (_, index) => generateProduct(index, { seed: 2004, now }));

  it("are the same on every run", () => {
    const again = generateProduct(42, { seed: 2004, now });
    expect(again.name).toBe(catalogue[42]?.name);
    expect(again.price.toFixed(2)).toBe(catalogue[42]?.price.toFixed(2));
  });

  it("cover every caliber, state, item type and gender", () => {
    const seen = (pick: (p: (typeof catalogue)[number]) => string) => new Set(catalogue.map(pick));
    expect(seen((p) => p.description.caliber)).toEqual(new Set(calibers));
    expect(seen((p) => p.description.state)).toEqual(new Set(productStates));
    expect(seen((p) => p.description.itemType)).toEqual(new Set(itemTypes));
    expect(seen((p) => p.description.gender)).toEqual(new Set(genders));
  });

  it("have shop prices with two decimals, stock from 0 to 10 and some new arrivals", () => {
    for (const product of catalogue) {
      expect(product.price.decimalPlaces()).toBeLessThanOrEqual(2);
      expect(product.price.greaterThan(0)).toBe(true);
      expect(product.stock).toBeGreaterThanOrEqual(0);
      expect(product.stock).toBeLessThanOrEqual(10);
    }
    expect(catalogue.some((p) => p.stock === 0)).toBe(true);
    const fortnightAgo = now.getTime() - 14 * 86_400_000;
    expect(catalogue.filter((p) => p.createdAt.getTime() > fortnightAgo).length).toBeGreaterThan(10);
  });

  it("fill every description field", () => {
    for (const product of catalogue) {
      for (const value of Object.values(product.description)) expect(value).toBeTruthy();
    }
  });

  it("price watches in whole euros and cheap parts like a shop does", () => {
    const rng = createRandom(1);
    for (let i = 0; i < 50; i++) {
      const price = priceFor([5, 40], 1, rng).toFixed(2);
      expect(price).toMatch(/\.(95|50|00)$/);
    }
  });
});

describe("product pictures", () => {
  it("escape the product name for XML", () => {
    expect(escapeXml(`Crown <5 mm> "A&B" it's`)).toBe("Crown &lt;5 mm&gt; &quot;A&amp;B&quot; it&apos;s");
    const svg = drawProductSvg({ ...generateProduct(0, { seed: 2004, now }), name: "Strap & buckle <NOS>" });
    expect(svg).toContain("Strap &amp; buckle &lt;NOS&gt;");
    expect(svg).not.toContain("<NOS>");
  });

  it("wrap long names into two lines with an ellipsis", () => {
    expect(wrapText("Sapphire crystal 30.5 mm", 40, 2)).toEqual(["Sapphire crystal 30.5 mm"]);
    const lines = wrapText("Omega Seamaster De Ville ref. 166.020 automatic with the original bracelet and box and papers", 30, 2);
    expect(lines).toHaveLength(2);
    expect(lines[1]?.endsWith("…")).toBe(true);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(30);
  });
});

describe("array literals for bulk inserts", () => {
  it("quote commas, quotes, backslashes and nulls", () => {
    expect(toPgArrayLiteral(["a,b", 'say "hi"', "back\\slash", null])).toBe('{"a,b","say \\"hi\\"","back\\\\slash",NULL}');
  });
});

describe("shipping calendar", () => {
  it("lists Mondays, Wednesdays and Fridays", () => {
    const days = shippingDays(new Date(2025, 5, 4), 1);
    expect(days).toEqual(["2025-06-04", "2025-06-06", "2025-06-09"]);
  });
});

describe("seed arguments", () => {
  it("read the product count and the if-empty switch", () => {
    expect(parseSeedArguments(["--products", "100000", "--if-empty"])).toEqual({ products: 100000, ifEmpty: true, forceProduction: false, help: false });
    expect(parseSeedArguments(["--products=1_000"]).products).toBe(1000);
  });

  it("refuse what they do not know", () => {
    expect(() => parseSeedArguments(["--products", "many"])).toThrow(/whole number/);
    expect(() => parseSeedArguments(["--wipe"])).toThrow(/Unknown option/);
  });

  it("refuse production, with or without --if-empty, unless --force-production is given", () => {
    expect(seedRefusal(parseSeedArguments([]), "production")).toMatch(/ENVIRONMENT=production[\s\S]*--force-production/);
    expect(seedRefusal(parseSeedArguments(["--if-empty"]), "production")).not.toBeNull();
    expect(seedRefusal(parseSeedArguments(["--force-production"]), "production")).toBeNull();
    expect(seedRefusal(parseSeedArguments([]), "staging")).toBeNull();
    expect(seedRefusal(parseSeedArguments([]), undefined)).toBeNull();
  });
});
