import { describe, expect, it } from "vitest";
import { orderAddressInput } from "@/server/orders/schemas";
import { addressInput } from "./schemas";

const address = { firstName: "Ada", lastName: "Lovelace", street: "Dam", houseNumber: "1", postCode: "1012 JS", city: "Amsterdam", countryCode: "nl" };
const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues.map((issue) => issue.message) ?? [];

// The address book and checkout keep the same address: what one refuses, the other must refuse alike, or an address
// saved in the book would be turned away when checkout picks it.
describe("one address schema for the address book and checkout", () => {
  it("accepts the same address in both, with the country code in capitals", () => {
    expect(addressInput.parse(address)).toMatchObject({ countryCode: "NL", companyName: null, phoneNumber: null });
    expect(orderAddressInput.parse(address)).toMatchObject({ countryCode: "NL", companyName: null, phoneNumber: null });
  });

  it.each([
    ["a phone number with letters", { phoneNumber: "call me" }, "Enter a phone number with digits only, e.g. +31 6 12345678"],
    ["a missing street", { street: " " }, "Street is required"],
    ["a long house number", { houseNumber: "1".repeat(21) }, "House number is at most 20 characters"],
    ["a long company name", { companyName: "C".repeat(121) }, "Company is at most 120 characters"],
    ["no country", { countryCode: "" }, "Choose a country"],
    // Issue 28: checkout took "ABC" as a Dutch postcode.
    ["a Dutch postcode that is none", { postCode: "ABC" }, "Enter a Dutch postcode like 1234 AB"],
    ["a German postcode of four digits", { postCode: "1011", countryCode: "DE" }, "Enter a German postcode like 10117"],
  ])("refuses %s in both with the same sentence", (_case, change, message) => {
    expect(messages(addressInput.safeParse({ ...address, ...change }))).toEqual([message]);
    expect(messages(orderAddressInput.safeParse({ ...address, ...change }))).toEqual([message]);
  });

  it("writes a Dutch postcode as PostNL does in both, and keeps a postcode of a country it knows no format of", () => {
    expect(addressInput.parse({ ...address, postCode: "1012js" }).postCode).toBe("1012 JS");
    expect(orderAddressInput.parse({ ...address, postCode: " 1012js" }).postCode).toBe("1012 JS");
    expect(orderAddressInput.parse({ ...address, countryCode: "PH", postCode: "ABC" }).postCode).toBe("ABC");
  });
});
