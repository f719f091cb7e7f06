import { customsTextLines } from "./customs-text";
import type { CustomsDeclaration } from "./port";

/** UPS's limit on a product's description line; a product has up to three. */
const DESCRIPTION_MAX = 35;

/** `YYYYMMDD` in Amsterdam, the shop's day, as UPS wants the invoice date. */
const upsDate = (date: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Amsterdam" }).format(date).replace(/-/g, "");

/**
 * The commercial invoice UPS makes for an export (`ShipmentServiceOptions.InternationalForms`, FormType 01): sold to
 * the receiver (`soldTo`, a UPS party), reason SALE, in euro, under the shop's invoice number and date, and per line the description, the
 * quantity in pieces with the unit value, the 6-digit commodity (HS) code and the country of origin.
 */
export function internationalForms(customs: CustomsDeclaration, soldTo: object) {
  return {
    FormType: "01",
    InvoiceNumber: customs.invoiceNumber,
    InvoiceDate: upsDate(customs.invoiceDate),
    ReasonForExport: "SALE",
    CurrencyCode: customs.currency,
    Contacts: { SoldTo: soldTo },
    Product: customs.lines.map((line) => ({
      Description: customsTextLines(line.description, DESCRIPTION_MAX, 3),
      Unit: { Number: String(line.quantity), Value: line.value.dividedBy(line.quantity).toFixed(2), UnitOfMeasurement: { Code: "PCS" } },
      CommodityCode: line.hsCode,
      OriginCountryCode: line.originCountryCode,
      ProductWeight: { UnitOfMeasurement: { Code: "KGS" }, Weight: Math.max(0.1, Math.round(line.netWeightGrams / 100) / 10).toFixed(1) },
    })),
  };
}

