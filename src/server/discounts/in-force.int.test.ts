import { Decimal } from "decimal.js";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discount } from "@/server/db/schema";
import { createTestDatabase, type TestDatabase } from "../../../tests/helpers/test-database";
import { discountInForce } from "./in-force";
import { inForceCases, NOW } from "./in-force-cases";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.dispose());

describe("discountInForce", () => {
  it.each(inForceCases)("$name: in force is $inForce", async ({ name, window, inForce }) => {
    const [row] = await t.db
      .insert(discount)
      .values({ name, value: new Decimal("5"), pricingType: "FIXED", discountType: "GLOBAL", ...window })
      .returning({ id: discount.id });
    const found = await t.db.select({ id: discount.id }).from(discount).where(and(eq(discount.id, row!.id), discountInForce(NOW)));
    expect(found.length === 1).toBe(inForce);
  });
});
