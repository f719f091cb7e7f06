import type { Db } from "@/server/db/client";
import { makeManufacturer } from "./factories";

/** Watch brands filed as the shop files them, under a top-level "Brands" manufacturer; made in the order named. */
export async function makeBrands<Name extends string>(db: Db, names: readonly Name[]): Promise<Record<Name, { id: number; name: string }>> {
  const parent = await makeManufacturer(db, "Brands");
  const brands = {} as Record<Name, { id: number; name: string }>;
  for (const name of names) brands[name] = await makeManufacturer(db, name, parent.id);
  return brands;
}
