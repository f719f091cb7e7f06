import "server-only";
import { Decimal } from "decimal.js";
import { eq } from "drizzle-orm";
import { oneLine } from "@/lib/text";
import { postalLines } from "@/server/account/schemas";
import { classificationOf } from "@/server/catalog/classification";
import { classificationColumns } from "@/server/catalog/columns";
import type { Db } from "@/server/db/client";
import { order, orderDetail, orderItem, productDescription } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import type { CarrierAddress } from "@/server/integrations/carriers/port";
import { lockOrderWithDetail, selectOrderWithDetails } from "@/server/orders/order-rows";
import { shopSeller } from "./documents/service";
import { chooseShipment, estimateParcel, type ShipmentChoice } from "./shipment-rules";

/*
 * An order as fulfilment reads it, and the parcel it makes: the weight, carrier, product and declared value, and the
 * sender and receiver the carrier prints on the label.
 */

/** The order and its shipping details as fulfilment reads them; NOT_FOUND for an unknown order. */
export async function readShippingOrder(db: Db, orderId: number) {
  const [row] = await selectOrderWithDetails(db).where(eq(order.id, orderId)).limit(1);
  if (!row) throw new AppError("NOT_FOUND", `Order ${orderId} does not exist.`);
  return row;
}

export type ShippingOrder = Awaited<ReturnType<typeof readShippingOrder>>;

/** An order's status and label state, its row locked for the caller's transaction; null for an unknown order. */
export async function lockShippingState(tx: Db, orderId: number) {
  return lockOrderWithDetail(tx, orderId, {
    orderNumber: order.orderNumber,
    status: order.status,
    trackingNumber: orderDetail.trackingNumber,
    labelCreatedAt: orderDetail.labelCreatedAt,
    shippedAt: orderDetail.shippedAt,
    deliveredAt: orderDetail.deliveredAt,
  });
}

/** The parcel's weight (stored, or estimated from what is in it) and the carrier and product it goes with. */
export async function planShipment(db: Db, row: ShippingOrder): Promise<{ weightGrams: number; choice: ShipmentChoice; declaredValue: Decimal }> {
  const lines = await db
    .select({ ...classificationColumns, quantity: orderItem.quantity, paid: orderItem.totalPrice })
    .from(orderItem)
    .leftJoin(productDescription, eq(productDescription.productId, orderItem.productId))
    .where(eq(orderItem.orderId, row.order.id));
  const estimate = estimateParcel(lines.map((line) => ({ itemType: classificationOf(line).itemType, quantity: line.quantity })));
  const weightGrams = row.detail.totalWeight ?? estimate.weightGrams;
  const choice = chooseShipment({
    countryCode: row.address.countryCode,
    eu: row.destination?.eu ?? false,
    method: row.detail.shippingMethod,
    weightGrams,
    fitsLetterbox: estimate.fitsLetterbox,
  });
  return { weightGrams, choice, declaredValue: lines.reduce((sum, line) => sum.plus(line.paid), new Decimal(0)) };
}

/** The shop as the label's sender: the same details its documents print (`shopSeller`). */
export function shopAddress(): CarrierAddress {
  const { name, street, houseNumber, postCode, city, countryCode, email, phone } = shopSeller();
  return { name, companyName: name, street, houseNumber, postCode, city, countryCode, email, phoneNumber: phone };
}

/**
 * The order's address as the carrier is given it, each field on one line, also for an address stored before line
 * breaks were refused: the carrier prints every field as a line of the label (SECURITY-REVIEW N-M5).
 */
export function receiverAddress(address: ShippingOrder["address"]): CarrierAddress {
  const lines = postalLines(address);
  return {
    name: oneLine(`${address.firstName} ${address.lastName}`),
    companyName: oneLine(lines.companyName),
    street: oneLine(lines.street),
    houseNumber: oneLine(lines.houseNumber),
    addressLine2: oneLine(lines.addressLine2),
    postCode: oneLine(lines.postCode),
    city: oneLine(lines.city),
    stateCode: oneLine(address.stateCode),
    countryCode: address.countryCode,
    email: address.email,
    phoneNumber: oneLine(address.phoneNumber),
  };
}
