import "server-only";
import { asc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { configParams, productCategory, productManufacturer } from "@/server/db/schema";
import type { MenuItem, NavbarData } from "./schemas";

type Node = { id: number; name: string; parentId: number | null };

/** The search page filtered to one category or manufacturer; where every menu entry leads. */
export function categoryHref(id: number): string {
  return `/search?category=${id}`;
}

export function manufacturerHref(id: number): string {
  return `/search?manufacturer=${id}`;
}

function toMenu(nodes: Node[], href: (id: number) => string): MenuItem[] {
  const byParent = new Map<number | null, Node[]>();
  for (const node of nodes) byParent.set(node.parentId, [...(byParent.get(node.parentId) ?? []), node]);
  const build = (parentId: number | null, depth: number): MenuItem[] =>
    (byParent.get(parentId) ?? []).map((node) => {
      // The depth bound guards against a parent cycle typed in by hand in the back office.
      const children = depth < 6 ? build(node.id, depth + 1) : [];
      return { id: node.id, name: node.name, href: href(node.id), ...(children.length ? { children } : {}) };
    });
  return build(null, 0);
}

/** The banner text and both menus, in the order staff gave them (orderWeight, then name). */
export async function getNavbarData(db: Db): Promise<NavbarData> {
  const [banner, categories, manufacturers] = await Promise.all([
    db.select({ value: configParams.value }).from(configParams).where(eq(configParams.param, "NAVBAR_BANNER_TEXT")).limit(1),
    db
      .select({ id: productCategory.id, name: productCategory.name, parentId: productCategory.parentId })
      .from(productCategory)
      .orderBy(asc(productCategory.orderWeight), asc(productCategory.name)),
    db
      .select({ id: productManufacturer.id, name: productManufacturer.name, parentId: productManufacturer.parentId })
      .from(productManufacturer)
      .orderBy(asc(productManufacturer.orderWeight), asc(productManufacturer.name)),
  ]);
  const bannerText = banner[0]?.value.trim();
  return {
    ...(bannerText ? { navbarBannerText: bannerText } : {}),
    manufacturers: toMenu(manufacturers, manufacturerHref),
    categories: toMenu(categories, categoryHref),
  };
}
