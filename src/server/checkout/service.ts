import "server-only";
import { Decimal } from "decimal.js";
import { eq } from "drizzle-orm";
import { formatEuro } from "@/lib/money";
import { MAX_ADDRESSES } from "@/server/account/schemas";
import { countAddresses, createAddress } from "@/server/account/service";
import { savedCartItems } from "@/server/cart/service";
import type { Db } from "@/server/db/client";
import { cartItem } from "@/server/db/schema";
import { notValidMessage } from "@/server/discounts/service";
import { AppError } from "@/server/errors";
import { logOrderChange } from "@/server/logbook/service";
import { limitCaller, type Caller } from "@/server/rate-limit/service";
import { notifyStaff } from "@/server/notifications/service";
import type { CartItemInput, CartLine, PricedCart } from "@/server/pricing/schemas";
import { priceItemsWithUses, type PricedCartWithUses } from "@/server/pricing/service";
import { getShippingOptions, quoteShipping } from "@/server/shipping/service";
import { insertOrder, LARGEST_STORED_AMOUNT, lockStock, totalsFitStorage } from "@/server/orders/insert-order";
import { orderTotals } from "@/server/orders/totals";
import {
  configuredUnpaidOrderCaps,
  lockOrderPlacer,
  orderPlacerOf,
  recordOrderPlacer,
  refuseBeyondUnpaidCaps,
  refuseLinesOverCap,
  type UnpaidOrderCaps,
} from "@/server/orders/unpaid-holds";
import { checkoutShippingInput, placeOrderInput, type CheckoutQuote, type CheckoutShippingInput, type PlacedOrder, type PlaceOrderInput } from "./schemas";

/**
 * Checkout: the cart priced for a destination, and placing the order. Everything is priced from the database;
 * the browser only names products and quantities.
 */

/**
 * Who places or prices the order: the signed-in customer (or a guest), and the caller behind the request, whose
 * limits apply (left out only by staff and the shop's own jobs).
 */
export type Buyer = { userId: string | null; caller?: Caller };

// Placing an order needs prices only; the checkout's summary passes the storage's picture addresses.
const noImage = () => "";

async function priceCheckoutCart(
  db: Db,
  buyer: Buyer,
  items: CartItemInput[],
  couponCode: string | undefined,
  now: Date,
  imageUrl: (key: string) => string = noImage,
  placing = false,
): Promise<PricedCartWithUses> {
  // Placing locks a customer's saved cart until the order commits: a double click or a second tab waits, then
  // finds the cart emptied by the first order and is refused instead of placing a second one.
  const lines = buyer.userId ? await savedCartItems(db, buyer.userId, { lock: placing }) : items;
  if (lines.length === 0) {
    if (placing && buyer.userId) throw new AppError("CONFLICT", "Your cart is empty. If you have just placed this order, you will find it under My orders.");
    throw new AppError("BAD_REQUEST", "Your cart is empty");
  }
  return priceItemsWithUses(db, lines, { now, imageUrl, userId: buyer.userId ?? undefined, couponCode, caller: buyer.caller ?? null });
}

/**
 * The checkout's summary: the priced cart (with the coupon, when one is given) and, once the destination is known,
 * each shipping method's cost and dates there and the order's totals with each method it allows, as `placeOrder`
 * would store them. Without a country there is nothing to ship to yet: `shipping` is null and `totals` empty.
 */
export async function checkoutQuote(
  db: Db,
  rawInput: CheckoutShippingInput,
  buyer: Buyer,
  options: { now?: Date; imageUrl?: (key: string) => string } = {},
): Promise<CheckoutQuote> {
  const input = checkoutShippingInput.parse(rawInput);
  const now = options.now ?? new Date();
  const { cart } = await priceCheckoutCart(db, buyer, input.items, input.couponCode, now, options.imageUrl);
  if (!input.countryCode) return { cart, shipping: null, totals: [] };
  const shipping = await getShippingOptions(db, { countryCode: input.countryCode, regionCode: input.stateCode || undefined, orderValue: cart.total }, now);
  const lines = orderLinesOfCart(cart);
  const totals = shipping.options
    .filter((option) => option.available)
    .map((option) => ({ method: option.method, totals: orderTotals(lines, { shippingTotal: option.cost, surcharge: option.surcharge }) }));
  return { cart, shipping, totals };
}

/**
 * Each line's share of the cart-level discount, in cents, proportional to the line's total; the last line takes
 * the rounding remainder so the shares add up to the discount exactly.
 */
export function splitCartDiscount(lines: Pick<CartLine, "lineTotal">[], discount: Decimal): Decimal[] {
  const subtotal = lines.reduce((sum, line) => sum.plus(line.lineTotal), new Decimal(0));
  if (discount.isZero() || subtotal.isZero()) return lines.map(() => new Decimal(0));
  let given = new Decimal(0);
  return lines.map((line, index) => {
    if (index === lines.length - 1) return discount.minus(given);
    const share = discount.times(line.lineTotal).dividedBy(subtotal).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    given = given.plus(share);
    return share;
  });
}

/**
 * The order lines of a priced cart as checkout writes them: each line's share of the cart's discount taken off its
 * total (`totalPrice`), and what came off its list price in all (`totalDiscountAmount`).
 */
export function orderLinesOfCart(cart: Pick<PricedCart, "items" | "discount">) {
  const shares = splitCartDiscount(cart.items, cart.discount?.amount ?? new Decimal(0));
  return cart.items.map((line, index) => {
    const totalPrice = line.lineTotal.minus(shares[index]!);
    return { productId: line.productId, quantity: line.quantity, totalPrice, totalDiscountAmount: line.price.times(line.quantity).minus(totalPrice) };
  });
}

/**
 * Places an order in one transaction: re-prices the cart from the database, quotes the chosen shipping method for
 * the destination, creates the PENDING order with its items, address, detail and payment detail, takes the stock
 * through the ledger (never below zero: each product row is locked while its stock is taken, so of many buyers
 * racing for the last piece exactly one gets it), empties a signed-in customer's saved cart, logs it all and
 * tells staff. The payment is started afterwards (`startPayment`), outside the transaction.
 *
 * A buyer with a caller (every web order) is held to the caller's limit on orders and to `caps` on what unpaid
 * orders may hold (`refuseBeyondUnpaidCaps`): their orders take turns under `lockOrderPlacer`, and the order is
 * counted against the limit in this transaction, so that only an order actually placed counts and a refused one
 * (sold out, say) leaves the count as it was.
 */
export async function placeOrder(
  db: Db,
  rawInput: PlaceOrderInput,
  buyer: Buyer,
  now: Date = new Date(),
  caps: UnpaidOrderCaps = configuredUnpaidOrderCaps(),
): Promise<PlacedOrder> {
  const input = placeOrderInput.parse(rawInput);
  const { caller } = buyer;
  const placer = caller ? orderPlacerOf(caller, input.email, buyer.userId) : null;
  return db.transaction(async (tx) => {
    if (caller && placer) {
      await lockOrderPlacer(tx, placer);
      await limitCaller(tx, "placeOrder", caller, now);
    }
    const { cart, discountUses } = await priceCheckoutCart(tx, buyer, input.items, input.couponCode, now, noImage, true);
    if (cart.unavailableProductIds.length > 0) {
      throw new AppError("CONFLICT", "Some products in your cart are no longer sold; please check your cart and try again.");
    }
    if (input.couponCode && !cart.coupon) throw new AppError("BAD_REQUEST", cart.couponMessage ?? notValidMessage(input.couponCode));
    if (placer) refuseLinesOverCap(cart.items, caps);
    await lockStock(tx, cart.items, (line, left) =>
      left <= 0
        ? `Sorry, "${line.name}" has just sold out. Please remove it from your cart.`
        : `Sorry, only ${left} of "${line.name}" left in stock; your cart asks for ${line.quantity}.`,
    );

    const { address } = input;
    const quote = await quoteShipping(
      tx,
      { countryCode: address.countryCode, regionCode: address.stateCode ?? undefined, orderValue: cart.total, method: input.shippingMethod },
      now,
    );
    const lines = orderLinesOfCart(cart);
    const totals = orderTotals(lines, { shippingTotal: quote.cost, surcharge: quote.surcharge });
    const { total } = totals;
    if (!totalsFitStorage(totals)) {
      throw new AppError("BAD_REQUEST", `An order of more than ${formatEuro(LARGEST_STORED_AMOUNT)} cannot be placed online; please contact the shop.`);
    }
    if (placer) await refuseBeyondUnpaidCaps(tx, placer, { pieces: cart.itemCount, value: totals.items }, caps);

    const { orderId, orderNumber } = await insertOrder(tx, {
      userId: buyer.userId,
      bookedBy: buyer.userId,
      lines,
      address,
      email: input.email,
      shipping: quote,
      shop: "WEBSHOP",
      provider: input.paymentMethod,
      totals,
      discounts: discountUses,
    });
    if (placer) await recordOrderPlacer(tx, orderId, placer);

    if (buyer.userId) {
      await tx.delete(cartItem).where(eq(cartItem.userId, buyer.userId));
      // A full address book does not stand in the way of an order: the address is then simply not kept.
      if (input.saveAddress && (await countAddresses(tx, buyer.userId)) < MAX_ADDRESSES) {
        await createAddress(tx, buyer.userId, { ...address, state: quote.regionName, email: input.email, isDefault: false });
      }
    }

    await logOrderChange(tx, orderId, {
      userId: buyer.userId,
      newState: {
        orderNumber,
        status: "PENDING",
        email: input.email,
        items: cart.items.map((line) => ({ productId: line.productId, quantity: line.quantity, lineTotal: line.lineTotal })),
        discount: cart.discount,
        shipping: { method: quote.method, cost: quote.cost, surcharge: quote.surcharge, countryCode: quote.countryCode, regionCode: quote.regionCode },
        paymentMethod: input.paymentMethod,
        total,
      },
      description: `Order ${orderNumber} placed by ${buyer.userId ? "a customer" : "a guest"} (${input.email}) for ${formatEuro(total)}, awaiting payment`,
    });
    await notifyStaff(tx, {
      type: "ORDER",
      message: `New order ${orderNumber}: ${cart.itemCount} item${cart.itemCount === 1 ? "" : "s"} for ${formatEuro(total)} to ${quote.countryName}, awaiting payment`,
    });
    return { orderId, orderNumber, email: input.email, total, paymentMethod: input.paymentMethod };
  });
}
