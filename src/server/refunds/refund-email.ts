import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { env } from "@/env";
import { errorMessage } from "@/lib/error-message";
import { shopUrl } from "@/server/config/shop-url";
import type { Db } from "@/server/db/client";
import { lockExistingRow } from "@/server/db/lock-row";
import { logbook, order, refund } from "@/server/db/schema";
import { getMail } from "@/server/integrations/mail/mail";
import type { MailPort } from "@/server/integrations/mail/port";
import { renderRefundConfirmationEmail } from "@/server/integrations/mail/refund-confirmation";
import { logChange } from "@/server/logbook/service";
import { confirmationUrl } from "@/server/orders/confirmation";
import { getOrderView } from "@/server/orders/view";
import { defineRefundJob } from "./refund-job";
import { readRefundRows, toRefundView } from "./refund-rows";

/** What the refund e-mail needs besides the refund: where the order page is, the token secret and the shop's name. */
export type RefundEmailOptions = { mail: MailPort; origin: string; tokenSecret: string; shopName: string };

const emailEntry = (refundId: number) => ({ userId: null, eventType: "EMAIL", entityType: "REFUND", entityId: refundId }) as const;

/** Whether the refund's newest e-mail entry in the logbook is a claim (the e-mail went, or is going, out). */
async function emailClaimed(tx: Db, refundId: number): Promise<boolean> {
  const [last] = await tx
    .select({ newState: logbook.newState })
    .from(logbook)
    .where(and(eq(logbook.eventType, "EMAIL"), eq(logbook.entityType, "REFUND"), eq(logbook.entityId, String(refundId))))
    .orderBy(desc(logbook.id))
    .limit(1);
  const state = last?.newState;
  return state !== null && typeof state === "object" && (state as Record<string, unknown>).refundEmailSent === true;
}

/**
 * Sends the customer the e-mail of one refund, once. The refund has no column of its own for it, so the claim is its
 * logbook: under the refund's row lock the newest EMAIL entry of the refund says whether it was claimed; a claim entry
 * is written and committed before sending, and a failed send is followed by an entry that gives the claim back (and
 * the job tries again). As with the order e-mails (`sendOrderEmailOnce`), a job that runs twice never sends twice. A
 * refund that failed gave nothing back and is not announced. Returns whether it sent the e-mail now.
 */
export async function sendRefundEmail(db: Db, refundId: number, options: RefundEmailOptions): Promise<boolean> {
  const [row] = await readRefundRows(db, eq(refund.id, refundId));
  if (!row || row.status === "FAILED") return false;
  const [view, orderNumber] = await orderOf(db, row.orderId);
  const to = view.email;
  const claimed = await db.transaction(async (tx) => {
    const locked = await lockExistingRow(tx, refund, refundId, { status: refund.status }, "Refund");
    if (locked.status === "FAILED" || (await emailClaimed(tx, refundId))) return false;
    await logChange(tx, {
      ...emailEntry(refundId),
      newState: { refundEmailSent: true, to, orderNumber },
      description: `Refund e-mail of refund ${refundId} (order ${orderNumber}, ${toRefundView(row).amount}) sent to ${to}`,
    });
    return true;
  });
  if (!claimed) return false;
  try {
    const orderUrl = await confirmationUrl(options.origin, orderNumber, options.tokenSecret);
    await options.mail.send(renderRefundConfirmationEmail(view, toRefundView(row), orderUrl, options.shopName));
  } catch (error) {
    await logChange(db, {
      ...emailEntry(refundId),
      logLevel: "ERROR",
      newState: { refundEmailSent: false, to, orderNumber },
      errorData: { message: errorMessage(error) },
      description: `The refund e-mail of refund ${refundId} (order ${orderNumber}) could not be sent; it is tried again`,
    });
    throw error;
  }
  return true;
}

async function orderOf(db: Db, orderId: number) {
  const [found] = await db.select({ orderNumber: order.orderNumber }).from(order).where(eq(order.id, orderId));
  if (!found) throw new Error(`Order ${orderId} of a refund does not exist`);
  return [await getOrderView(db, found.orderNumber), found.orderNumber] as const;
}

/** Queued in the transaction in which the provider accepted the refund (or staff recorded it), so it goes only then. */
export const refundEmailJob = defineRefundJob({
  name: "refund-email",
  retry: { limit: 5, delaySeconds: 60, backoff: true },
  async run({ refundId }, { db }) {
    await sendRefundEmail(db, refundId, { mail: getMail(db), origin: shopUrl(), tokenSecret: env.TOKEN_SECRET, shopName: env.SHOP_NAME });
  },
});
