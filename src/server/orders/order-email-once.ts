import "server-only";
import { and, eq } from "drizzle-orm";
import { errorMessage } from "@/lib/error-message";
import type { Db } from "@/server/db/client";
import { orderDetail } from "@/server/db/schema";
import { logChange } from "@/server/logbook/service";

/**
 * Sends one of an order's e-mails once, and marks it sent. The mark (`flag`) is claimed before sending, so a job that
 * runs twice never sends twice; when sending fails the claim is given back and the failure logged under `failed`, and
 * the caller's retry sends it. `sent` is logged once the e-mail is out. Returns whether it sent the e-mail now.
 */
export async function sendOrderEmailOnce(
  db: Db,
  {
    orderId,
    flag,
    send,
    failed,
    sent,
  }: {
    orderId: number;
    flag: "orderEmailSent" | "shippingEmailSent";
    send: () => Promise<void>;
    failed: string;
    sent: { description: string; newState: Record<string, unknown> };
  },
): Promise<boolean> {
  const claimed = await db
    .update(orderDetail)
    .set({ [flag]: true })
    .where(and(eq(orderDetail.orderId, orderId), eq(orderDetail[flag], false)))
    .returning({ id: orderDetail.id });
  if (claimed.length === 0) return false;
  const logged = { userId: null, eventType: "EMAIL", entityType: "ORDER", entityId: orderId } as const;
  try {
    await send();
  } catch (error) {
    await db.transaction(async (tx) => {
      await tx.update(orderDetail).set({ [flag]: false }).where(eq(orderDetail.orderId, orderId));
      await logChange(tx, {
        ...logged,
        logLevel: "ERROR",
        errorData: { message: errorMessage(error) },
        description: failed,
      });
    });
    throw error;
  }
  await logChange(db, { ...logged, newState: { [flag]: true, ...sent.newState }, description: sent.description });
  return true;
}
