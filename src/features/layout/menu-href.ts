import type { MenuItem } from "@/server/navbar/schemas";

/** Where a menu entry leads; an entry without a link leads to /404 (SPEC section 2). */
export function menuHref(item: MenuItem): string {
  return item.href ?? "/404";
}
