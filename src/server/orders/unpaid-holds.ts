import "server-only";
import { createHmac } from "node:crypto";
import { Decimal } from "decimal.js";
import { and, eq, exists, ne, or, sql, type SQL } from "drizzle-orm";
import { env } from "@/env";
import { formatEuro } from "@/lib/money";
import type { OnlinePaymentMethod } from "@/lib/payment-methods";
import type { Db } from "@/server/db/client";
import { order, orderItem, orderPlacer } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { paymentOpenUntil } from "@/server/integrations/payments/port";
import type { Caller } from "@/server/rate-limit/service";

/**
 * What unpaid web orders may hold, and for how long (SECURITY-REVIEW N-H2). An order takes its pieces off sale when
 * it is placed, before it is paid, so that two buyers never pay for one piece; without bounds, a few orders nobody
 * pays for would empty the shop. So an unpaid order holds its pieces only while its payment can still be made, and
 * what one buyer's unpaid orders hold together is capped, in pieces and in list value. Staff's manual orders and
 * marketplace imports are not capped: staff and the marketplace vouch for them.
 */

/** How long unpaid orders hold their pieces, in minutes: the methods paid on the provider's page at once, and PayPal. */
export type UnpaidHolds = { minutes: number; paypalMinutes: number };

/** The shop's holds as configured (UNPAID_HOLD_MINUTES, UNPAID_HOLD_MINUTES_PAYPAL). */
export function configuredUnpaidHolds(): UnpaidHolds {
  return { minutes: env.UNPAID_HOLD_MINUTES, paypalMinutes: env.UNPAID_HOLD_MINUTES_PAYPAL };
}

/**
 * Until when an unpaid order paid by `method` and placed at `placedAt` holds its pieces: as long as the provider
 * keeps a bank transfer open (its money may still be on its way), the life of PayPal's approval page for PayPal, and
 * the shop's hold for the methods a buyer finishes on the provider's page at once. An order whose payment never
 * started (`method` null) holds them for the shop's hold.
 */
export function holdEndsAt(method: OnlinePaymentMethod | null, placedAt: Date, holds: UnpaidHolds): Date {
  const open = method ? paymentOpenUntil(method, placedAt) : null;
  if (open) return open;
  return new Date(placedAt.getTime() + (method === "PAYPAL" ? holds.paypalMinutes : holds.minutes) * 60_000);
}

/** The caps on web orders: what one buyer's unpaid orders may hold together, and the pieces of one product per order. */
export type UnpaidOrderCaps = { pieces: number; value: Decimal; piecesPerLine: number };

/** The shop's caps as configured (UNPAID_HOLD_MAX_PIECES, UNPAID_HOLD_MAX_VALUE, ORDER_LINE_MAX_PIECES). */
export function configuredUnpaidOrderCaps(): UnpaidOrderCaps {
  return { pieces: env.UNPAID_HOLD_MAX_PIECES, value: new Decimal(env.UNPAID_HOLD_MAX_VALUE), piecesPerLine: env.ORDER_LINE_MAX_PIECES };
}

/**
 * Who places a web order, each way the shop can tell a buyer again: the client's network address, the visitor token,
 * the e-mail address and, when signed in, the customer's account. A signed-in customer is capped like a guest, and
 * by their account besides: an account is only an e-mail address that answered a link, which whoever owns a domain
 * can make by the dozen, so signing in must not lift the cap.
 */
export type OrderPlacer = { clientKey: string; visitorId: string | null; emailKey: string; userId: string | null };

/**
 * A keyed hash (HMAC-SHA256 under the token secret) of a client address or an e-mail address. The cap only needs to
 * know that two orders came from the same address, not which address it was, and a row outlives its order's hold in
 * backups and copies of the database; a plain hash of an IPv4 address is reversed by trying all four billion. Keyed,
 * two requests from one address still compare equal, but the stored keys name nobody without the secret.
 */
function placerKey(kind: "client" | "email", value: string, secret: string): string {
  return createHmac("sha256", secret).update(`order-placer/${kind}/${value}`).digest("base64url");
}

/** Who places an order, as the cap counts them: `email` as the buyer typed it, `userId` null for a guest. */
export function orderPlacerOf(caller: Caller, email: string, userId: string | null, secret: string = env.TOKEN_SECRET): OrderPlacer {
  return { clientKey: placerKey("client", caller.client, secret), visitorId: caller.visitorId, emailKey: placerKey("email", email.trim().toLowerCase(), secret), userId };
}

/** Each way a placer is known by, as the advisory lock it takes. */
function placerLockKeys(placer: OrderPlacer): string[] {
  const keys = [`client/${placer.clientKey}`, `email/${placer.emailKey}`];
  if (placer.visitorId) keys.push(`visitor/${placer.visitorId}`);
  if (placer.userId) keys.push(`user/${placer.userId}`);
  return keys.map((key) => `unpaid-hold/${key}`).sort();
}

/**
 * Makes the orders of one placer take turns until the transaction ends: an advisory lock for each way the placer is
 * known by, always in the same order, so that two orders sharing any of them cannot both count what the other holds
 * before it is written. Take it first in the order's transaction, before any row lock, so that it never waits
 * for a lock while holding a product row another order wants.
 */
export async function lockOrderPlacer(tx: Db, placer: OrderPlacer): Promise<void> {
  for (const key of placerLockKeys(placer)) await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

/** Refuses (BAD_REQUEST) a web order line of more pieces of one product than a person buys at once. */
export function refuseLinesOverCap(lines: readonly { quantity: number; name: string }[], caps: UnpaidOrderCaps): void {
  const over = lines.find((line) => line.quantity > caps.piecesPerLine);
  if (over) {
    throw new AppError("BAD_REQUEST", `At most ${caps.piecesPerLine} of "${over.name}" can be ordered online at once; please change your cart, or contact the shop for more.`);
  }
}

type Held = { pieces: number; value: Decimal };

/**
 * Refuses (TOO_MANY_REQUESTS) an order that would bring what its placer's unpaid web orders hold over the caps, in
 * pieces or in list value, counted apart for the client address, the visitor, the e-mail address and the customer's
 * account, so that changing one of them does not start afresh; an order over the caps on its own, which waiting does
 * not help, is a BAD_REQUEST. Call it under `lockOrderPlacer`, before the order is written. Once an order is paid or
 * cancelled (by the buyer on the payment page, or by the sweep once its hold is over) it holds nothing any more.
 */
export async function refuseBeyondUnpaidCaps(tx: Db, placer: OrderPlacer, placing: Held, caps: UnpaidOrderCaps): Promise<void> {
  const over = (held: Held) => held.pieces + placing.pieces > caps.pieces || held.value.plus(placing.value).greaterThan(caps.value);
  const limit = `${caps.pieces} piece${caps.pieces === 1 ? "" : "s"} or ${formatEuro(caps.value)}`;
  if (over({ pieces: 0, value: new Decimal(0) })) {
    throw new AppError("BAD_REQUEST", `An order of more than ${limit} cannot be placed online; please contact the shop.`);
  }

  const ways: SQL[] = [eq(orderPlacer.clientKey, placer.clientKey), eq(orderPlacer.emailKey, placer.emailKey)];
  if (placer.visitorId) ways.push(eq(orderPlacer.visitorId, placer.visitorId));
  if (placer.userId) ways.push(eq(order.userId, placer.userId));
  const open = await tx
    .select({
      clientKey: orderPlacer.clientKey,
      visitorId: orderPlacer.visitorId,
      emailKey: orderPlacer.emailKey,
      userId: order.userId,
      pieces: sql<number>`sum(${orderItem.quantity})`.mapWith(Number),
      value: sql`sum(${orderItem.totalPrice} + ${orderItem.totalDiscountAmount})`.mapWith(orderItem.totalPrice),
    })
    .from(orderPlacer)
    .innerJoin(order, eq(order.id, orderPlacer.orderId))
    .innerJoin(orderItem, eq(orderItem.orderId, order.id))
    .where(and(eq(order.status, "PENDING"), or(...ways)))
    .groupBy(order.id, orderPlacer.id);

  const sameAs: ((row: (typeof open)[number]) => boolean)[] = [
    (row) => row.clientKey === placer.clientKey,
    (row) => row.emailKey === placer.emailKey,
    (row) => placer.visitorId !== null && row.visitorId === placer.visitorId,
    (row) => placer.userId !== null && row.userId === placer.userId,
  ];
  const heldEachWay = sameAs.map((same) =>
    open.filter(same).reduce<Held>((sum, row) => ({ pieces: sum.pieces + row.pieces, value: sum.value.plus(row.value) }), { pieces: 0, value: new Decimal(0) }),
  );
  const beyond = heldEachWay.filter(over).sort((a, b) => b.pieces - a.pieces || b.value.comparedTo(a.value))[0];
  if (!beyond) return;
  throw new AppError(
    "TOO_MANY_REQUESTS",
    `You have unpaid orders holding ${beyond.pieces} piece${beyond.pieces === 1 ? "" : "s"} (${formatEuro(beyond.value)}); with this order they would hold more than ${limit}. ` +
      "Please pay or cancel them first (an unpaid order is released once its payment page has expired), or contact the shop for a larger order.",
  );
}

/** Records who placed a web order, for `refuseBeyondUnpaidCaps` to count while the order is unpaid. */
export async function recordOrderPlacer(tx: Db, orderId: number, placer: OrderPlacer): Promise<void> {
  await tx.insert(orderPlacer).values({ orderId, clientKey: placer.clientKey, visitorId: placer.visitorId, emailKey: placer.emailKey });
}

/**
 * Forgets who placed the orders that are no longer unpaid: the cap only needs them while the order holds pieces, and
 * the shop keeps nothing about a visitor for longer than it needs. Returns how many it forgot.
 */
export async function forgetSettledPlacers(db: Db): Promise<number> {
  const settled = db.select({ id: order.id }).from(order).where(and(eq(order.id, orderPlacer.orderId), ne(order.status, "PENDING")));
  const deleted = await db.delete(orderPlacer).where(exists(settled)).returning({ id: orderPlacer.id });
  return deleted.length;
}
