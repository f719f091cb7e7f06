import { z } from "zod";
import type { Carrier, OrderStatus } from "@/lib/enums";
import { rowId } from "@/lib/id";

/** At most this many orders in one bulk action: a day's parcels, with room to spare. */
const MAX_BULK_ORDERS = 500;

const orderIds = z.array(rowId).min(1, "Choose at least one order.").max(MAX_BULK_ORDERS, `Choose at most ${MAX_BULK_ORDERS} orders at once.`);

export const createLabelsInput = z.object({ orderIds });
export const voidLabelInput = z.object({ orderId: rowId });
export const markShippedInput = z.object({ orderIds });
/** Chosen orders, or today's batch of paid orders waiting to go out (as their print-out selects them). */
export const makeInvoicesInput = z.union([z.object({ orderIds }), z.object({ day: z.literal("today") })]);

/** What `makeInvoices` did: each order's invoice number, and whether this call gave it (`made`) or it had one. */
export type MadeInvoices = { invoices: { orderId: number; orderNumber: string; invoiceNumber: string; made: boolean }[] };

/** An order a bulk action left alone, and why, in words for staff. */
export type RefusedOrder = { orderId: number; orderNumber: string | null; reason: string };

/** What `createLabels` did: one create-label job queued per order that can get a label. */
export type LabelRequests = { queued: { orderId: number; orderNumber: string }[]; refused: RefusedOrder[] };

/** What `markShipped` did. */
export type ShipmentOutcome = { shipped: { orderId: number; orderNumber: string }[]; refused: RefusedOrder[] };

export type CreatedLabel = { orderNumber: string; carrier: Carrier; product: string; trackingNumber: string; labelKey: string };

export type VoidedLabel = { orderNumber: string; status: OrderStatus };
