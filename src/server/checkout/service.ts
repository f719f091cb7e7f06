import "server-only";
import { Decimal } from "decimal.js";
import { and, asc, eq, inArray } from "drizzle-orm";
import { formatEuro } from "@/lib/money";
import { MAX_ADDRESSES } from "@/server/account/schemas";
import { countAddresses, createAddress } from "@/server/account/service";
import { savedCartItems } from "@/server/cart/service";
import type { Db } from "@/server/db/client";
import { cartItem, country, order, orderAddress, orderDetail, orderItem, paymentDetail, product, region } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { logChange } from "@/server/logbook/service";
import type { Caller } from "@/server/rate-limit/service";
import { notifyStaff } from "@/server/notifications/service";
import type { CartItemInput, CartLine, PricedCart } from "@/server/pricing/schemas";
import { priceItems } from "@/server/pricing/service";
import { getShippingOptions, quoteShipping } from "@/server/shipping/service";
import type { ShippingOptions } from "@/server/shipping/schemas";
import { orderTotals } from "@/server/orders/totals";
import { bookStock } from "@/server/stock/service";
import { checkoutShippingInput, placeOrderInput, type CheckoutShippingInput, type PlacedOrder, type PlaceOrderInput } from "./schemas";

/**
 * Checkout: the cart priced for a destination, and placing the order. Everything is priced from the database;
 * the browser only names products and quantities.
 */

/** The largest amount a money column (numeric(12,2)) holds. */
const LARGEST_STORED_AMOUNT = new Decimal("9999999999.99");

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
): Promise<PricedCart> {
  // Placing locks a customer's saved cart until the order commits: a double click or a second tab waits, then
  // finds the cart emptied by the first order and is refused instead of placing a second one.
  const lines = buyer.userId ? await savedCartItems(db, buyer.userId, { lock: placing }) : items;
  if (lines.length === 0) {
    if (placing && buyer.userId) throw new AppError("CONFLICT", "Your cart is empty. If you have just placed this order, you will find it under My orders.");
    throw new AppError("BAD_REQUEST", "Your cart is empty");
  }
  return priceItems(db, lines, { now, imageUrl, userId: buyer.userId ?? undefined, couponCode, caller: buyer.caller ?? null });
}

/**
 * The checkout's summary: the priced cart (with the coupon, when one is given) and, once the destination is known,
 * each shipping method's cost and dates there. Without a country there is nothing to ship to yet: `shipping` is null.
 */
export async function checkoutQuote(
  db: Db,
  rawInput: CheckoutShippingInput,
  buyer: Buyer,
  options: { now?: Date; imageUrl?: (key: string) => string } = {},
): Promise<{ cart: PricedCart; shipping: ShippingOptions | null }> {
  const input = checkoutShippingInput.parse(rawInput);
  const now = options.now ?? new Date();
  const cart = await priceCheckoutCart(db, buyer, input.items, input.couponCode, now, options.imageUrl);
  if (!input.countryCode) return { cart, shipping: null };
  const shipping = await getShippingOptions(db, { countryCode: input.countryCode, regionCode: input.stateCode || undefined, orderValue: cart.total }, now);
  return { cart, shipping };
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

async function destinationNames(db: Db, countryCode: string, regionCode: string | null): Promise<{ country: string; region: string | null }> {
  const [found] = await db
    .select({ country: country.name, region: region.name })
    .from(country)
    .leftJoin(region, and(eq(region.countryId, country.id), regionCode ? eq(region.code, regionCode) : undefined))
    .where(eq(country.code, countryCode))
    .limit(1);
  if (!found) throw new AppError("BAD_REQUEST", `We do not know the country code ${countryCode}`);
  return { country: found.country, region: regionCode ? found.region : null };
}

/**
 * Places an order in one transaction: re-prices the cart from the database, quotes the chosen shipping method for
 * the destination, creates the PENDING order with its items, address, detail and payment detail, takes the stock
 * through the ledger (never below zero: each product row is locked while its stock is taken, so of many buyers
 * racing for the last piece exactly one gets it), empties a signed-in customer's saved cart, logs it all and
 * tells staff. The payment is started afterwards (`startPayment`), outside the transaction.
 */
export async function placeOrder(db: Db, rawInput: PlaceOrderInput, buyer: Buyer, now: Date = new Date()): Promise<PlacedOrder> {
  const input = placeOrderInput.parse(rawInput);
  return db.transaction(async (tx) => {
    const cart = await priceCheckoutCart(tx, buyer, input.items, input.couponCode, now, noImage, true);
    if (cart.unavailableProductIds.length > 0) {
      throw new AppError("CONFLICT", "Some products in your cart are no longer sold; please check your cart and try again.");
    }
    if (input.couponCode && !cart.coupon) throw new AppError("BAD_REQUEST", cart.couponMessage ?? `The code ${input.couponCode} is not valid.`);
    await lockStock(tx, cart.items);

    const { address } = input;
    const quote = await quoteShipping(
      tx,
      { countryCode: address.countryCode, regionCode: address.stateCode ?? undefined, orderValue: cart.total, method: input.shippingMethod },
      now,
    );
    const names = await destinationNames(tx, quote.countryCode, quote.regionCode);
    // What each line is paid after its share of the cart's discount, and what came off its list price in all.
    const shares = splitCartDiscount(cart.items, cart.discount?.amount ?? new Decimal(0));
    const lines = cart.items.map((line, index) => {
      const totalPrice = line.lineTotal.minus(shares[index]!);
      return { productId: line.productId, quantity: line.quantity, totalPrice, totalDiscountAmount: line.price.times(line.quantity).minus(totalPrice) };
    });
    const totals = orderTotals(lines, { shippingTotal: quote.cost, surcharge: quote.surcharge });
    const { total } = totals;
    if (totals.items.greaterThan(LARGEST_STORED_AMOUNT) || total.greaterThan(LARGEST_STORED_AMOUNT)) {
      throw new AppError("BAD_REQUEST", `An order of more than ${formatEuro(LARGEST_STORED_AMOUNT)} cannot be placed online; please contact the shop.`);
    }

    const [created] = await tx.insert(order).values({ userId: buyer.userId, status: "PENDING" }).returning({ id: order.id, orderNumber: order.orderNumber });
    if (!created) throw new AppError("INTERNAL_SERVER_ERROR", "The order could not be saved.");
    const { id: orderId, orderNumber } = created;

    const items = await tx
      .insert(orderItem)
      .values(lines.map((line) => ({ orderId, ...line })))
      .returning({ id: orderItem.id, productId: orderItem.productId, quantity: orderItem.quantity });

    for (const item of items) {
      await bookStock(tx, {
        productId: item.productId,
        quantity: -item.quantity,
        type: "ORDER_ITEM",
        orderItemId: item.id,
        userId: buyer.userId,
        description: `Sold ${item.quantity} in order ${orderNumber}`,
      });
    }

    await tx.insert(orderAddress).values({
      orderId,
      firstName: address.firstName,
      lastName: address.lastName,
      companyName: address.companyName,
      street: address.street,
      houseNumber: address.houseNumber,
      addressLine2: address.addressLine2,
      postCode: address.postCode,
      city: address.city,
      phoneNumber: address.phoneNumber,
      country: names.country,
      countryCode: quote.countryCode,
      stateCode: quote.regionCode,
      state: names.region,
      email: input.email,
    });
    await tx.insert(orderDetail).values({
      orderId,
      shippingMethod: quote.method,
      shop: "WEBSHOP",
      estimatedShippingDate: quote.estimatedShippingDate,
      estimatedDeliveryDate: quote.estimatedDeliveryDate,
    });
    await tx.insert(paymentDetail).values({
      orderId,
      provider: input.paymentMethod,
      itemTotal: totals.items,
      itemTotalDiscountAmount: totals.discount,
      // The insurance surcharge of the order value's band, included in the shipping total.
      additionalShippingFees: totals.surcharge,
      shippingTotal: totals.shipping.plus(totals.surcharge),
      total,
    });

    if (buyer.userId) {
      await tx.delete(cartItem).where(eq(cartItem.userId, buyer.userId));
      // A full address book does not stand in the way of an order: the address is then simply not kept.
      if (input.saveAddress && (await countAddresses(tx, buyer.userId)) < MAX_ADDRESSES) {
        await createAddress(tx, buyer.userId, { ...address, state: names.region, email: input.email, isDefault: false });
      }
    }

    await logChange(tx, {
      userId: buyer.userId,
      eventType: "ORDER",
      entityType: "ORDER",
      entityId: orderId,
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
      message: `New order ${orderNumber}: ${cart.itemCount} item${cart.itemCount === 1 ? "" : "s"} for ${formatEuro(total)} to ${names.country}, awaiting payment`,
    });
    return { orderId, orderNumber, email: input.email, total, paymentMethod: input.paymentMethod };
  });
}

/**
 * Locks the cart's product rows, in product id order, and refuses (CONFLICT) when one has less stock than the
 * cart asks for. Locking before the order items are written matters: their foreign keys take a share lock on the
 * product rows, and two buyers holding share locks would deadlock when each then wants the row for the update.
 * The locks hold until the transaction ends, so the stock seen here is the stock `bookStock` then takes from.
 */
async function lockStock(tx: Db, lines: CartLine[]): Promise<void> {
  const ids = lines.map((line) => line.productId).sort((a, b) => a - b);
  const rows = await tx.select({ id: product.id, stock: product.stock }).from(product).where(inArray(product.id, ids)).orderBy(asc(product.id)).for("update");
  const stock = new Map(rows.map((row) => [row.id, row.stock]));
  for (const line of lines) {
    const left = stock.get(line.productId) ?? 0;
    if (left >= line.quantity) continue;
    throw new AppError(
      "CONFLICT",
      left <= 0
        ? `Sorry, "${line.name}" has just sold out. Please remove it from your cart.`
        : `Sorry, only ${left} of "${line.name}" left in stock; your cart asks for ${line.quantity}.`,
    );
  }
}
