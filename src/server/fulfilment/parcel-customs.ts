import "server-only";
import { Decimal } from "decimal.js";
import { asc, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { oneLine } from "@/lib/text";
import { classificationOf } from "@/server/catalog/classification";
import { classificationColumns } from "@/server/catalog/columns";
import type { Db } from "@/server/db/client";
import { country, orderItem, product, productDescription, productManufacturer } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import type { CustomsDeclaration } from "@/server/integrations/carriers/port";
import { readInvoiceNumber } from "./documents/invoice-number";
import { needsCustomsDeclaration, netGramsOf, tariffOf } from "./customs";
import type { ShippingOrder } from "./parcel";

const makerCountry = alias(country, "maker_country");

/**
 * The customs declaration of an order's parcel, from its lines as sold: null when the parcel stays within the EU's
 * customs and VAT area. A product's country of origin is its own, or else its maker's (where the shop knows where the
 * maker is based). A line whose product has no country of origin or no item type cannot be declared: the label
 * is refused (PRECONDITION_FAILED) naming each such product and the field to fill in its product form, before any
 * carrier is asked.
 */
export async function readCustomsDeclaration(db: Db, row: ShippingOrder): Promise<CustomsDeclaration | null> {
  const destination = { countryCode: row.address.countryCode, postCode: row.address.postCode ?? "", eu: row.destination?.eu ?? false };
  if (!needsCustomsDeclaration(destination)) return null;

  const lines = await db
    .select({
      ...classificationColumns,
      name: product.name,
      quantity: orderItem.quantity,
      paid: orderItem.totalPrice,
      origin: country.code,
      makerOrigin: makerCountry.code,
      condition: productDescription.condition,
      movement: productDescription.movement,
      braceletStrap: productDescription.braceletStrap,
      additional: productDescription.additional,
    })
    .from(orderItem)
    .innerJoin(product, eq(product.id, orderItem.productId))
    .leftJoin(productDescription, eq(productDescription.productId, orderItem.productId))
    .leftJoin(country, eq(country.id, product.countryId))
    .leftJoin(productManufacturer, eq(productManufacturer.id, product.manufacturerId))
    .leftJoin(makerCountry, eq(makerCountry.id, productManufacturer.countryId))
    .where(eq(orderItem.orderId, row.order.id))
    .orderBy(asc(orderItem.id));

  const missing: string[] = [];
  const declared = lines.map((line) => {
    const { itemType, caliber } = classificationOf(line);
    const text = [line.name, line.condition, line.movement, line.braceletStrap, line.additional].filter(Boolean).join(" ");
    const tariff = tariffOf({ itemType, caliber, text });
    if (!tariff) missing.push(`“${line.name}” has no item type`);
    const origin = line.origin ?? line.makerOrigin;
    if (!origin) missing.push(`“${line.name}” has no country of origin`);
    return {
      description: oneLine(`${tariff?.goods ?? "Goods"}: ${line.name}`),
      quantity: line.quantity,
      netWeightGrams: netGramsOf(itemType) * line.quantity,
      value: new Decimal(line.paid),
      hsCode: tariff?.hsCode ?? "",
      originCountryCode: origin ?? "",
    };
  });
  if (missing.length > 0) {
    throw new AppError(
      "PRECONDITION_FAILED",
      `Order ${row.order.orderNumber} leaves the EU and needs a customs declaration, but ${missing.join("; ")}. Fill it in the product's form, then create the label again.`,
    );
  }
  const invoice = await readInvoiceNumber(db, row.order.id);
  return {
    category: "SALE_OF_GOODS",
    currency: "EUR",
    invoiceNumber: invoice?.invoiceNumber ?? row.order.orderNumber,
    invoiceDate: invoice?.invoicedAt ?? row.order.createdAt,
    lines: declared,
  };
}
