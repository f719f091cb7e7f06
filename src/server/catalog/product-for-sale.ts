import type { Decimal } from "decimal.js";

/** A product as the sales channels (the cart, the marketplace offer) read it: what it is called, what it costs, how many are left. */
export type ProductForSale = {
  productId: number;
  name: string;
  /** The list price, before any discount. */
  price: Decimal;
  stock: number;
};

/** A product row's sale fields, under the names the channels use. */
export function productForSale(row: { id: number; name: string; price: Decimal; stock: number }): ProductForSale {
  return { productId: row.id, name: row.name, price: row.price, stock: row.stock };
}
