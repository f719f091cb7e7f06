import { describe, expect, it } from "vitest";
import { addressFields, addressInput, addressLines, addressLineTexts } from "./schemas";

const address = { firstName: "Ada", lastName: "Lovelace", street: "Dam", houseNumber: "1", postCode: "1012 JS", city: "Amsterdam", countryCode: "NL" };

// The forms mark a field required from `addressFields`; the schema decides. The two must say the same of each field.
describe("the address fields the forms show", () => {
  it.each(Object.entries(addressFields))("mark %s required exactly when the schema refuses it empty, and name it in its message", (name, field) => {
    const refused = addressInput.safeParse({ ...address, [name]: "" });
    expect(refused.success).toBe(!field.required);
    if (!refused.success && name !== "countryCode") expect(refused.error.issues.map((issue) => issue.message)).toEqual([`${field.label} is required`]);
  });

  it("hold an address's lines as text, empty where there is none", () => {
    expect(addressLineTexts(null)).toEqual(Object.fromEntries(addressLines.map((line) => [line, ""])));
    expect(addressLineTexts({ ...address, companyName: null, addressLine2: "Back door" })).toEqual({
      firstName: "Ada", lastName: "Lovelace", companyName: "", street: "Dam", houseNumber: "1", addressLine2: "Back door", postCode: "1012 JS", city: "Amsterdam",
    });
  });
});
