import { Decimal } from "decimal.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MAX_ADDRESSES, type AddressInput } from "@/server/account/schemas";
import { addressBook, country } from "@/server/db/schema";
import { createCaller } from "@/server/root";
import { createTestDatabase, type TestDatabase } from "../../../tests/helpers/test-database";
import { contextFor, makeUser } from "../../../tests/helpers/admin-fixtures";
import { codeOf } from "../../../tests/helpers/refusals";

// What one customer can make the shop store: the address book has a ceiling, with a message that says what to do.

let t: TestDatabase;
let customer: ReturnType<typeof createCaller>;
let customerId: string;

const address = (n: number): AddressInput => ({
  firstName: "Clara",
  lastName: "Janssen",
  street: "Keizersgracht",
  houseNumber: String(n),
  postCode: "1015 CJ",
  city: "Amsterdam",
  countryCode: "NL",
});

const addressCount = () => t.db.$count(addressBook, eq(addressBook.userId, customerId));

/** Fills the address book up to `size` through the procedure a customer uses. */
async function fillTo(size: number) {
  for (let n = await addressCount(); n < size; n++) await customer.shared.account.createAddress(address(n + 1));
}

beforeAll(async () => {
  t = await createTestDatabase();
  const money = new Decimal("5.00");
  await t.db.insert(country).values({
    code: "NL", name: "Netherlands", phoneCode: "+31", untrackedCost: money, tntCost: money, untrackedEtaDays: 2, tntEtaDays: 1, maxOrderUntracked: money,
  });
  const clara = await makeUser(t.db, "USER", "Clara");
  customerId = clara.id;
  customer = createCaller(contextFor(t.db, clara));
});

afterAll(() => t?.dispose());

beforeEach(async () => {
  await t.db.delete(addressBook).where(eq(addressBook.userId, customerId));
});

describe(`the address book holds at most ${MAX_ADDRESSES} addresses`, () => {
  it("refuses one more with a sentence the customer can act on, and takes it once one is deleted", async () => {
    await fillTo(MAX_ADDRESSES);
    await expect(customer.shared.account.createAddress(address(MAX_ADDRESSES + 1))).rejects.toMatchObject({
      code: "CONFLICT",
      message: `Your address book is full (${MAX_ADDRESSES} addresses). Delete an address you no longer use, then add this one.`,
    });
    expect(await addressCount()).toBe(MAX_ADDRESSES);

    const [oldest] = await customer.shared.account.addresses();
    await customer.shared.account.deleteAddress({ id: oldest!.id });
    await customer.shared.account.createAddress(address(MAX_ADDRESSES + 1));
    expect(await addressCount()).toBe(MAX_ADDRESSES);
  });

  it("still lets a customer with a full book change an address", async () => {
    await fillTo(MAX_ADDRESSES);
    const [first] = await customer.shared.account.addresses();
    const changed = await customer.shared.account.updateAddress({ id: first!.id, address: { ...address(1), city: "Utrecht" } });
    expect(changed.city).toBe("Utrecht");
  });

  it("lets only one of two addresses saved at once take the last place", async () => {
    await fillTo(MAX_ADDRESSES - 1);
    const codes = await Promise.all([codeOf(customer.shared.account.createAddress(address(98))), codeOf(customer.shared.account.createAddress(address(99)))]);
    expect(codes.sort()).toEqual(["CONFLICT", "OK"]);
    expect(await addressCount()).toBe(MAX_ADDRESSES);
  });
});
