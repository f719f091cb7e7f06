import "server-only";
import { and, asc, count, eq, sql } from "drizzle-orm";
import { CART_FULL_MESSAGE, MAX_CART_LINES } from "@/lib/cart";
import type { Db } from "@/server/db/client";
import { lockRow } from "@/server/db/lock-row";
import { cartItem, product } from "@/server/db/schema";
import { findCoupon } from "@/server/discounts/service";
import { AppError } from "@/server/errors";
import type { AppliedCoupon } from "@/server/discounts/schemas";
import type { CartItemInput, PricedCart } from "@/server/pricing/schemas";
import { combineItems, priceItems, type PricingOptions } from "@/server/pricing/service";
import type { CartUpdateResult } from "./schemas";

export type CartOptions = Omit<PricingOptions, "userId">;

/** The first key of the advisory lock that stands for one customer's saved cart (the second is their id's hash). */
const CART_LOCK = 80_412_006;

/**
 * Makes one customer's cart changes wait for each other, so that two tabs adding different products cannot both
 * take the last free line. Taken first in the transaction, before any row lock, so it cannot close a deadlock.
 */
async function lockCart(tx: Db, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${CART_LOCK}, hashtext(${userId}))`);
}

/**
 * A customer's saved cart, oldest line first. `lock` holds the lines until the transaction ends, as placing an
 * order does, so that a second order from the same cart waits and then finds it emptied.
 */
export async function savedCartItems(db: Db, userId: string, options: { lock?: boolean } = {}): Promise<CartItemInput[]> {
  const query = db
    .select({ productId: cartItem.productId, quantity: cartItem.quantity })
    .from(cartItem)
    .where(eq(cartItem.userId, userId))
    .orderBy(asc(cartItem.createdAt), asc(cartItem.id));
  return options.lock ? query.for("update") : query;
}

/** The signed-in customer's saved cart, priced from the database (with their USER discount and a coupon if asked). */
export async function getCart(db: Db, userId: string, options: CartOptions): Promise<PricedCart> {
  return priceItems(db, await savedCartItems(db, userId), { ...options, userId });
}

async function sellableProduct(db: Db, productId: number) {
  // Locked: two tabs changing the same line wait for each other, so neither overshoots the stock.
  const row = await lockRow(db, product, productId, { name: product.name, stock: product.stock, wsStatus: product.wsStatus });
  if (!row || row.wsStatus !== "ONLINE") throw new AppError("NOT_FOUND", "This product is no longer available in the shop.");
  return row;
}

/**
 * Changes one line by a quantity delta. A line that reaches zero goes; a line never holds more than the stock, and
 * when the server had to hold it back the notice says so.
 */
export async function updateCartItem(
  db: Db,
  userId: string,
  update: { productId: number; quantity: number },
  options: CartOptions,
): Promise<CartUpdateResult> {
  const notice = await db.transaction(async (tx) => {
    await lockCart(tx, userId);
    const item = await sellableProduct(tx, update.productId);
    const [line] = await tx
      .select({ quantity: cartItem.quantity })
      .from(cartItem)
      .where(and(eq(cartItem.userId, userId), eq(cartItem.productId, update.productId)));
    const current = line?.quantity ?? 0;
    const wanted = current + update.quantity;
    const next = Math.min(wanted, item.stock);
    if (!line && next > 0) {
      const [lines] = await tx.select({ n: count() }).from(cartItem).where(eq(cartItem.userId, userId));
      if ((lines?.n ?? 0) >= MAX_CART_LINES) throw new AppError("CONFLICT", CART_FULL_MESSAGE);
    }
    if (next <= 0) {
      await tx.delete(cartItem).where(and(eq(cartItem.userId, userId), eq(cartItem.productId, update.productId)));
    } else {
      await tx
        .insert(cartItem)
        .values({ userId, productId: update.productId, quantity: next })
        .onConflictDoUpdate({ target: [cartItem.userId, cartItem.productId], set: { quantity: next } });
    }
    if (wanted <= item.stock) return null;
    if (item.stock <= 0) return `"${item.name}" is sold out, so it is not in your cart.`;
    return `Only ${item.stock} of "${item.name}" in stock: your cart holds ${item.stock}.`;
  });
  return { cart: await getCart(db, userId, options), notice };
}

export async function deleteCartItem(db: Db, userId: string, productId: number, options: CartOptions): Promise<PricedCart> {
  await db.delete(cartItem).where(and(eq(cartItem.userId, userId), eq(cartItem.productId, productId)));
  return getCart(db, userId, options);
}

/**
 * Adds a visitor's local cart to their saved cart on sign-in: quantities of a product in both are added up, and
 * held to the stock. Products the shop no longer sells are left out, and so are new products once the saved cart
 * holds MAX_CART_LINES (a failed merge would lose the whole local cart).
 */
export async function mergeCart(db: Db, userId: string, items: CartItemInput[]): Promise<void> {
  const quantities = combineItems(items);
  if (quantities.size === 0) return;
  await db.transaction(async (tx) => {
    await lockCart(tx, userId);
    const lines = new Set((await tx.select({ productId: cartItem.productId }).from(cartItem).where(eq(cartItem.userId, userId))).map((line) => line.productId));
    for (const [productId, quantity] of quantities) {
      if (!lines.has(productId) && lines.size >= MAX_CART_LINES) continue;
      const row = await lockRow(tx, product, productId, { stock: product.stock, wsStatus: product.wsStatus });
      if (!row || row.wsStatus !== "ONLINE" || row.stock <= 0) continue;
      lines.add(productId);
      await tx
        .insert(cartItem)
        .values({ userId, productId, quantity: Math.min(quantity, row.stock) })
        .onConflictDoUpdate({
          target: [cartItem.userId, cartItem.productId],
          set: { quantity: sql`least(${cartItem.quantity} + ${quantity}, ${row.stock})` },
        });
    }
  });
}

/**
 * Checks a coupon code against the saved cart. Returns the coupon and the cart priced with it; a code that does not
 * apply now (unknown, switched off, not yet valid, expired, used up: one message for all) and one the cart is below
 * the minimum order value of are an AppError (BAD_REQUEST), as checkout would refuse them. A code that applies but takes less off than the customer's own
 * discount is not refused: the cart says so in `couponMessage`.
 */
export async function validateDiscount(
  db: Db,
  userId: string,
  code: string,
  options: Omit<CartOptions, "couponCode">,
): Promise<{ coupon: AppliedCoupon; cart: PricedCart }> {
  const coupon = await findCoupon(db, code, options.now, options.caller);
  const cart = await getCart(db, userId, { ...options, couponCode: coupon.code });
  if (cart.items.length === 0) throw new AppError("BAD_REQUEST", "Add something to your cart before using a code.");
  // Pricing reports a code that does not apply to this cart (below its minimum, or used up meanwhile) without
  // throwing; the coupon box refuses it, so that the customer is not shown a code as accepted that checkout refuses.
  if (!cart.coupon && cart.couponMessage) throw new AppError("BAD_REQUEST", cart.couponMessage);
  return { coupon, cart };
}
