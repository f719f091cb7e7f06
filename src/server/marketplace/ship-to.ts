import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { oneLine } from "@/lib/text";
import type { Db } from "@/server/db/client";
import { country, region } from "@/server/db/schema";
import type { MarketplaceShipTo } from "@/server/integrations/marketplace/port";
import type { OrderAddressValues } from "@/server/orders/insert-order";
import type { ShippingPlace } from "@/server/shipping/schemas";
import { estimatedDeliveryDate, getNextShippingDay } from "@/server/shipping/service";

/*
 * The buyer's ship-to as the marketplace gives it, taken into an imported order: each field on one line, the name and
 * the street split into the shop's address columns, and where the parcel goes and when it should leave and arrive.
 */
/** eBay has one name for the buyer; the first word is taken as the first name. */
function splitName(fullName: string): { firstName: string; lastName: string } {
  const words = fullName.trim().split(/\s+/);
  return words.length > 1 ? { firstName: words[0]!, lastName: words.slice(1).join(" ") } : { firstName: "", lastName: words[0] ?? "" };
}

/** eBay has the street and number on one line: "Damstraat 12-A" (Europe) or "12 Main Street" (elsewhere). */
function splitStreet(line: string): { street: string; houseNumber: string } {
  const trimmed = line.trim();
  const numberLast = /^(.*\D)\s+(\d[\w/-]*(?:\s?[A-Za-z])?)$/.exec(trimmed);
  if (numberLast) return { street: numberLast[1]!.trim(), houseNumber: numberLast[2]! };
  const numberFirst = /^(\d[\w/-]*)\s+(.+)$/.exec(trimmed);
  if (numberFirst) return { street: numberFirst[2]!.trim(), houseNumber: numberFirst[1]! };
  return { street: trimmed, houseNumber: "" };
}

/**
 * The marketplace's ship-to with each field on one line. The shop refuses line breaks and control characters in the
 * addresses it is given (`lineText`), but an order sold on eBay cannot be refused, so its address is put on one line
 * as it comes in: every field is a line of its own on the label, packing slip and invoice (SECURITY-REVIEW N-M5).
 */
export function oneLineShipTo(shipTo: MarketplaceShipTo): MarketplaceShipTo {
  return {
    fullName: oneLine(shipTo.fullName),
    addressLine1: oneLine(shipTo.addressLine1),
    addressLine2: oneLine(shipTo.addressLine2) || null,
    postalCode: oneLine(shipTo.postalCode),
    city: oneLine(shipTo.city),
    stateOrProvince: oneLine(shipTo.stateOrProvince),
    countryCode: oneLine(shipTo.countryCode),
    phone: oneLine(shipTo.phone) || null,
    email: oneLine(shipTo.email),
  };
}

/** The order address of the marketplace's ship-to, in the shop's address columns. */
export function addressOf(shipTo: MarketplaceShipTo): OrderAddressValues {
  return {
    ...splitName(shipTo.fullName),
    companyName: null,
    ...splitStreet(shipTo.addressLine1),
    addressLine2: shipTo.addressLine2,
    postCode: shipTo.postalCode,
    city: shipTo.city,
    countryCode: shipTo.countryCode.toUpperCase(),
    phoneNumber: shipTo.phone,
  };
}

/**
 * Where the parcel goes, by the shop's names where it knows the country (the marketplace decides where it sells to,
 * so a country the shop does not ship to itself is still taken), and when it should leave and arrive.
 */
export async function placeOf(tx: Db, shipTo: MarketplaceShipTo, now: Date) {
  const countryCode = shipTo.countryCode.toUpperCase();
  const [known] = await tx.select({ id: country.id, name: country.name, tntEtaDays: country.tntEtaDays }).from(country).where(eq(country.code, countryCode));
  const state = shipTo.stateOrProvince?.trim() || null;
  let regionCode: string | null = null;
  let regionName = state;
  if (known && state) {
    const [found] = await tx
      .select({ code: region.code, name: region.name })
      .from(region)
      .where(and(eq(region.countryId, known.id), sql`(upper(${region.code}) = upper(${state}) or lower(${region.name}) = lower(${state}))`));
    if (found) ({ code: regionCode, name: regionName } = found);
  }
  const place: ShippingPlace = { countryCode, countryName: known?.name ?? countryCode, regionCode, regionName };
  const estimatedShippingDate = await getNextShippingDay(tx, now);
  return {
    place,
    shipping: {
      // The marketplace's buyers are sent tracked parcels: eBay wants the tracking number.
      method: "TNT" as const,
      estimatedShippingDate,
      estimatedDeliveryDate: estimatedShippingDate && known ? estimatedDeliveryDate(estimatedShippingDate, known.tntEtaDays) : null,
    },
  };
}
