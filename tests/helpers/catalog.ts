import type { Db } from "@/server/db/client";
import { getManyProductsInput } from "@/server/catalog/schemas";
import { getManyProducts } from "@/server/catalog/service";

/** The shop's product list for a query as the browser sends it, with pictures under /storage/. */
export function listProducts(db: Db, input: Record<string, unknown>, now?: Date) {
  return getManyProducts(db, getManyProductsInput.parse(input), { imageUrl: (key) => `/storage/${key}`, now });
}
