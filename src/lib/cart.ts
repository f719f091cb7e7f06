/**
 * Distinct products one cart holds: the browser's cart and the saved cart of a signed-in customer alike. Plenty for
 * any real order, and it keeps what one visitor or customer can make the server store and price bounded.
 */
export const MAX_CART_LINES = 100;

export const CART_FULL_MESSAGE = `Your cart already holds ${MAX_CART_LINES} different products, the most it can. Remove one, or check out first, to add another.`;
