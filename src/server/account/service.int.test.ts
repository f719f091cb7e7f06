import { Decimal } from "decimal.js";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { country, logbook } from "@/server/db/schema";
import { createCaller } from "@/server/root";
import { createTestDatabase, type TestDatabase } from "../../../tests/helpers/test-database";
import { contextFor, makeUser } from "../../../tests/helpers/admin-fixtures";

// The address book's changes are business changes: each writes its logbook entry, with the address before and after.

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
  const money = new Decimal("5.00");
  await t.db.insert(country).values({
    code: "NL", name: "Netherlands", phoneCode: "+31", untrackedCost: money, tntCost: money, untrackedEtaDays: 2, tntEtaDays: 1, maxOrderUntracked: money,
  });
});

afterAll(() => t?.dispose());

describe("the address book's logbook", () => {
  it("records adding, changing, choosing the default and deleting, by the customer, with the states", async () => {
    const clara = await makeUser(t.db, "USER", "Clara");
    const customer = createCaller(contextFor(t.db, clara));
    const home = { firstName: "Clara", lastName: "Janssen", street: "Keizersgracht", houseNumber: "1", postCode: "1015 CJ", city: "Amsterdam", countryCode: "NL" };
    const first = await customer.shared.account.createAddress(home);
    const second = await customer.shared.account.createAddress({ ...home, houseNumber: "2" });
    const moved = await customer.shared.account.updateAddress({ id: second.id, address: { ...home, houseNumber: "2", city: "Utrecht" } });
    await customer.shared.account.setDefaultAddress({ id: second.id });
    await customer.shared.account.deleteAddress({ id: first.id });

    const entries = await t.db
      .select({
        userId: logbook.userId, eventType: logbook.eventType, entityType: logbook.entityType, entityId: logbook.entityId, logLevel: logbook.logLevel,
        description: logbook.description, previousState: logbook.previousState, newState: logbook.newState, errorData: logbook.errorData,
      })
      .from(logbook)
      .where(and(eq(logbook.entityType, "ADDRESS_BOOK"), eq(logbook.userId, clara.id)))
      .orderBy(asc(logbook.id));
    const common = { userId: clara.id, eventType: "ADDRESS", entityType: "ADDRESS_BOOK", logLevel: "INFO", errorData: null };
    expect(entries).toEqual([
      { ...common, entityId: String(first.id), description: "Customer added an address", previousState: null, newState: first },
      { ...common, entityId: String(second.id), description: "Customer added an address", previousState: null, newState: second },
      { ...common, entityId: String(second.id), description: "Customer changed an address", previousState: second, newState: moved },
      { ...common, entityId: String(second.id), description: "Customer chose a default address", previousState: moved, newState: { ...moved, isDefault: true } },
      { ...common, entityId: String(first.id), description: "Customer deleted an address", previousState: { ...first, isDefault: false }, newState: null },
    ]);
  });
});
