/** How the shop names and describes itself (SPEC section 1, BRAND.md). */
export const shopIdentity = {
  strapLine: "Watches and watch parts from collectors, since 2004",
  title: "Vintage watches and watch parts for collectors",
  description:
    "Wristwatches, pocket watches, movements and spare parts — crystals, crowns, dials, hands, straps and tools — selected by watch collectors since 2004.",
  keywords: [
    "vintage watches", "watch parts", "watch movements", "pocket watches", "watch crystals", "watch crowns",
    "watch dials", "watch hands", "watch straps", "watchmaker tools", "Omega parts", "Seiko parts",
  ],
};
