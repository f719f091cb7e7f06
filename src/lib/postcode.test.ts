import { describe, expect, it } from "vitest";
import { checkPostcode } from "./postcode";

// One case per known format: accepted as typed, written as the country writes it, and refused with what to type.
describe("postcodes per country", () => {
  it.each([
    ["NL", "1234 AB", "1234 AB"],
    ["NL", "1234ab", "1234 AB"],
    ["NL", " 1016  gv ", "1016 GV"],
    ["BE", "2000", "2000"],
    ["LU", "L-1009", "1009"],
    ["DE", "10117", "10117"],
    ["FR", "75003", "75003"],
    ["IT", "20121", "20121"],
    ["ES", "28013", "28013"],
    ["AT", "1010", "1010"],
    ["CH", "8001", "8001"],
    ["DK", "1160", "1160"],
    ["SE", "11152", "111 52"],
    ["PL", "00372", "00-372"],
    ["PT", "1100-148", "1100-148"],
    ["GB", "ec1v9hx", "EC1V 9HX"],
    ["GB", "M1 1AD", "M1 1AD"],
    ["US", "94103", "94103"],
    ["US", "94103-1234", "94103-1234"],
    ["CA", "m5v2t6", "M5V 2T6"],
    ["AU", "2000", "2000"],
    ["JP", "104-0061", "104-0061"],
  ])("%s accepts %j as %j", (country, typed, written) => {
    expect(checkPostcode(country, typed)).toEqual({ ok: true, postcode: written });
  });

  it.each([
    ["NL", "ABC", "Enter a Dutch postcode like 1234 AB"],
    ["NL", "0123 AB", "Enter a Dutch postcode like 1234 AB"],
    ["NL", "1234 SS", "Enter a Dutch postcode like 1234 AB"],
    ["BE", "10000", "Enter a Belgian postcode like 1000"],
    ["DE", "1011", "Enter a German postcode like 10117"],
    ["FR", "7500A", "Enter a French postcode like 75003"],
    ["AT", "10100", "Enter an Austrian postcode like 1010"],
    ["GB", "12345", "Enter a UK postcode like SW1A 1AA"],
    ["US", "9410", "Enter a ZIP code like 94103 or 94103-1234"],
    ["CA", "12345", "Enter a Canadian postal code like M5V 2T6"],
  ])("%s refuses %j", (country, typed, message) => {
    expect(checkPostcode(country, typed)).toEqual({ ok: false, message });
  });

  it("keeps any postcode of a country whose format it does not know, and leaves an empty one to 'required'", () => {
    expect(checkPostcode("BR", "01310-100")).toEqual({ ok: true, postcode: "01310-100" });
    expect(checkPostcode("PH", "ABC")).toEqual({ ok: true, postcode: "ABC" });
    expect(checkPostcode("NL", "  ")).toEqual({ ok: true, postcode: "" });
  });
});
