import "server-only";
import { Decimal } from "decimal.js";
import { and, asc, eq, gte, inArray, isNotNull, isNull, lt, sql } from "drizzle-orm";
import { env } from "@/env";
import type { OrderStatus, ShippingMethod } from "@/lib/enums";
import { shopIdentity } from "@/lib/shop";
import type { Db } from "@/server/db/client";
import { order, orderDetail } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import type { PrivateStoragePort } from "@/server/integrations/storage/port";
import type { OrderView } from "@/server/orders/schemas";
import { getOrderView } from "@/server/orders/view";
import { SHOP_TIME_ZONE } from "@/lib/shop-clock";
import { shopDateAndHour } from "@/server/shipping/service";
import { renderInvoices } from "./invoice";
import type { MadeInvoices } from "../schemas";
import { assignInvoiceNumbers, isPaid, readInvoiceNumber, type AssignedInvoiceNumber } from "./invoice-number";
import { mergeLabelPdfs } from "./labels";
import { collectedRefusal } from "../shipment-rules";
import type { Seller } from "./layout";
import { renderPackingSlips } from "./packing-slip";
import { renderPickList } from "./pick-list";

/**
 * The documents staff print for the orders they pack: the carriers' labels merged into one PDF, packing slips,
 * invoices and the pick list, each for chosen orders or for the day's batch. Every order is read through the one read
 * model (`getOrderView`), so a document shows exactly what the customer's order page and e-mails show.
 */

export const printDocuments = ["labels", "packing-slips", "invoices", "pick-list"] as const;
export type PrintDocument = (typeof printDocuments)[number];

const documentNames: Record<PrintDocument, string> = { labels: "Labels", "packing-slips": "Packing slips", invoices: "Invoices", "pick-list": "Pick lists" };

export const isPrintDocument = (value: string): value is PrintDocument => (printDocuments as readonly string[]).includes(value);

/** One PDF holds at most this many orders: enough for a busy day, small enough to make in seconds and to print. */
export const MAX_ORDERS_PER_DOCUMENT = 500;

/** Which orders: these (in this order), or today's batch (see `printDocument`). */
export type OrderSelection = { orderIds: number[] } | { day: "today" };

export type PrintedDocument = { filename: string; pdf: Buffer; orderNumbers: string[] };

/** Who makes invoices, and when (their date). */
export type InvoiceActor = { userId: string | null; now?: Date };

/** The shop as seller and sender on its documents, from its configuration. */
export function shopSeller(): Seller {
  return {
    name: env.SHOP_NAME,
    strapLine: shopIdentity.strapLine,
    street: env.SHOP_STREET,
    houseNumber: env.SHOP_HOUSE_NUMBER,
    postCode: env.SHOP_POST_CODE,
    city: env.SHOP_CITY,
    countryCode: env.SHOP_COUNTRY_CODE,
    email: env.SHOP_EMAIL,
    phone: env.SHOP_PHONE,
    chamberOfCommerce: env.SHOP_CHAMBER_OF_COMMERCE ?? null,
    vatNumber: env.SHOP_VAT_NUMBER ?? null,
  };
}

type SelectedOrder = { orderId: number; orderNumber: string; status: OrderStatus; shippingMethod: ShippingMethod; labelKey: string | null };

const selectedColumns = { orderId: order.id, orderNumber: order.orderNumber, status: order.status, shippingMethod: orderDetail.shippingMethod, labelKey: orderDetail.gcsLabelFilename };

/** What each document is called in a refusal of an order collected in the shop, which only has an invoice. */
const collectedDocumentNames: Record<Exclude<PrintDocument, "invoices">, string> = { labels: "label", "packing-slips": "packing slip", "pick-list": "pick list" };

/** Orders as a document selects them, with their label; the caller adds the `where`. */
function selectOrders(db: Db) {
  return db.select(selectedColumns).from(order).innerJoin(orderDetail, eq(orderDetail.orderId, order.id)).$dynamic();
}

/**
 * One PDF of `document` for the selected orders. Chosen orders must all be paid (and have a label, for labels);
 * unknown or unfit orders are refused by number, so staff know which to take out. Today's batch is, for labels, the
 * orders packed with a label made today (shop time); for the others, the paid orders waiting to go out today
 * (PAID_READY_TO_SHIP or PROCESSED, not yet shipped). Printing only reads: invoices print with the numbers
 * `makeInvoices` gave, and an order without one is refused by number (SECURITY-REVIEW N-L1).
 */
export async function printDocument(db: Db, storage: PrivateStoragePort, document: PrintDocument, selection: OrderSelection, options: { now?: Date } = {}): Promise<PrintedDocument> {
  const now = options.now ?? new Date();
  const orders = "orderIds" in selection ? await chosenOrders(db, document, selection.orderIds) : await todaysBatch(db, document, now);
  const orderNumbers = orders.map((selected) => selected.orderNumber);
  const today = shopDateAndHour(now).date;
  const filename = (singular: string, single: string) =>
    orders.length === 1 && "orderIds" in selection ? `${singular}-${single}.pdf` : `${document}-${today}${"orderIds" in selection ? `-${orders.length}-orders` : ""}.pdf`;

  if (document === "labels") {
    const labels = [];
    for (const selected of orders) {
      const stored = selected.labelKey ? await storage.get(selected.labelKey) : null;
      if (!stored) throw new AppError("CONFLICT", `The label PDF of order ${selected.orderNumber} is missing from storage: void the label and create it again.`);
      labels.push({ orderNumber: selected.orderNumber, pdf: stored.body });
    }
    return { filename: filename("label", orderNumbers[0]!), pdf: await mergeLabelPdfs(labels, { title: `Labels, ${today}`, producer: env.SHOP_NAME }), orderNumbers };
  }

  const seller = shopSeller();
  if (document === "invoices") {
    const numbers: (AssignedInvoiceNumber | null)[] = [];
    for (const selected of orders) numbers.push(await readInvoiceNumber(db, selected.orderId));
    const without = orders.filter((_, index) => !numbers[index]);
    if (without.length > 0) {
      throw new AppError("CONFLICT", `No invoice has been made yet for ${without.map((row) => row.orderNumber).join(", ")}: make the invoices first ("Invoice" on the order's page, or "Print invoices" for orders chosen in the list).`);
    }
    const views = await readViews(db, orders);
    const invoices = views.map((view, index) => ({ order: view, ...numbers[index]! }));
    return { filename: filename("invoice", invoices[0]!.invoiceNumber), pdf: await renderInvoices(seller, new Decimal(String(env.INVOICE_VAT_RATE)), invoices), orderNumbers };
  }

  const views = await readViews(db, orders);
  if (document === "packing-slips") return { filename: filename("packing-slip", orderNumbers[0]!), pdf: await renderPackingSlips(seller, views), orderNumbers };
  return { filename: filename("pick-list", orderNumbers[0]!), pdf: await renderPickList(seller, views, now), orderNumbers };
}

/**
 * Makes the invoices of the selected orders (paid ones only, refused as a whole otherwise, as printing them would be):
 * each order without an invoice number gets the next, in print order, with its logbook entry; orders invoiced before
 * keep theirs, so making them again changes nothing. Staff then print them (`printDocument`), which only reads.
 */
export async function makeInvoices(db: Db, selection: OrderSelection, actor: InvoiceActor): Promise<MadeInvoices> {
  const now = actor.now ?? new Date();
  const orders = "orderIds" in selection ? await chosenOrders(db, "invoices", selection.orderIds) : await todaysBatch(db, "invoices", now);
  const numberOf = new Map(orders.map((row) => [row.orderId, row.orderNumber]));
  const invoices = await assignInvoiceNumbers(db, orders.map((row) => row.orderId), { userId: actor.userId, now });
  return { invoices: invoices.map(({ orderId, invoiceNumber, made }) => ({ orderId, orderNumber: numberOf.get(orderId)!, invoiceNumber, made })) };
}

async function readViews(db: Db, orders: readonly SelectedOrder[]): Promise<OrderView[]> {
  const views: OrderView[] = [];
  for (const selected of orders) views.push(await getOrderView(db, selected.orderNumber));
  return views;
}

/** The chosen orders in the order given (each once), refused as a whole when any is unknown or unfit. */
async function chosenOrders(db: Db, document: PrintDocument, orderIds: readonly number[]): Promise<SelectedOrder[]> {
  const unique = [...new Set(orderIds)];
  if (unique.length === 0) throw new AppError("BAD_REQUEST", "Choose at least one order to print.");
  if (unique.length > MAX_ORDERS_PER_DOCUMENT) throw tooMany(unique.length);
  const rows = await selectOrders(db).where(inArray(order.id, unique));
  const byId = new Map(rows.map((row) => [row.orderId, row]));
  const unknown = unique.filter((id) => !byId.has(id));
  if (unknown.length > 0) throw new AppError("NOT_FOUND", `${unknown.length === 1 ? "This order does" : "These orders do"} not exist: ${unknown.join(", ")}.`);
  const selected = unique.map((id) => byId.get(id)!);

  const unpaid = selected.filter((row) => !isPaid(row.status));
  if (unpaid.length > 0) {
    throw new AppError("PRECONDITION_FAILED", `${documentNames[document]} are only for paid orders; not paid: ${unpaid.map((row) => `${row.orderNumber} (${row.status})`).join(", ")}.`);
  }
  const collected = selected.find((row) => row.shippingMethod === "COLLECTED");
  if (collected && document !== "invoices") throw new AppError("CONFLICT", collectedRefusal(collected.orderNumber, collectedDocumentNames[document]));
  if (document === "labels") {
    const unlabelled = selected.filter((row) => !row.labelKey);
    if (unlabelled.length > 0) throw new AppError("CONFLICT", `No label has been made yet for ${unlabelled.map((row) => row.orderNumber).join(", ")}: create the labels first.`);
  }
  return selected;
}

/** Today's batch (see `printDocument`), by order number; NOT_FOUND when there is nothing to print. */
async function todaysBatch(db: Db, document: PrintDocument, now: Date): Promise<SelectedOrder[]> {
  const today = shopDateAndHour(now).date;
  const dayStart = (days: number) => sql`((${today}::date + ${days}::int)::timestamp at time zone ${SHOP_TIME_ZONE})`;
  const where =
    document === "labels"
      ? and(eq(order.status, "PROCESSED"), isNotNull(orderDetail.gcsLabelFilename), gte(orderDetail.labelCreatedAt, dayStart(0)), lt(orderDetail.labelCreatedAt, dayStart(1)))
      : and(inArray(order.status, ["PAID_READY_TO_SHIP", "PROCESSED"]), isNull(orderDetail.shippedAt));
  const rows = await selectOrders(db).where(where).orderBy(asc(order.orderNumber)).limit(MAX_ORDERS_PER_DOCUMENT + 1);
  if (rows.length > MAX_ORDERS_PER_DOCUMENT) throw tooMany(`more than ${MAX_ORDERS_PER_DOCUMENT}`);
  if (rows.length === 0) throw new AppError("NOT_FOUND", document === "labels" ? "No labels have been made today." : "No paid orders are waiting to go out today.");
  return rows;
}

function tooMany(count: number | string): AppError {
  return new AppError("BAD_REQUEST", `One document holds at most ${MAX_ORDERS_PER_DOCUMENT} orders and this one would hold ${count}: choose fewer orders in the order list and print them in parts.`);
}
