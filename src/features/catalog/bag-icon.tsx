import { ShoppingBag } from "lucide-react";

const symbolId = "shop-bag-icon";

/**
 * The shopping bag drawn once per page (by the shop layout), for the add-to-cart buttons to point at: a listing has
 * two dozen of them, and the icon spelt out in each was a twentieth of the cached page.
 */
export function BagIconDefinition() {
  return (
    <svg aria-hidden="true" className="absolute size-0 overflow-hidden">
      <symbol id={symbolId} viewBox="0 0 24 24">
        <ShoppingBag />
      </symbol>
    </svg>
  );
}

/** The shopping bag as `BagIconDefinition` drew it; sized by its button like any other icon. */
export function BagIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24">
      <use href={`#${symbolId}`} />
    </svg>
  );
}
