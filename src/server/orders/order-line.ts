/** A line of a stored order as staff's screens name it (margins, refunds): the order item, its product, how many pieces. */
export type OrderLine = {
  orderItemId: number;
  productId: number;
  /** The product's name. */
  name: string;
  quantity: number;
};

/** A line as `readOrderLines` reads it, under those names. */
export function orderLineOf(line: { itemId: number; productId: number; name: string; quantity: number }): OrderLine {
  return { orderItemId: line.itemId, productId: line.productId, name: line.name, quantity: line.quantity };
}
