/**
 * eBay revises a listing at most 250 times a day. The shop counts each offer's revisions by the marketplace's day
 * (UTC, as `revisionDay` stores it), so a push, a revise or a bulk update past the limit waits for the next day
 * instead of being refused.
 */
export const REVISIONS_PER_DAY = 250;

/** The marketplace's day of a moment (YYYY-MM-DD, UTC). */
export const marketplaceDay = (at: Date) => at.toISOString().slice(0, 10);

/** The start of the marketplace's next day, when a listing may be revised again. */
export const nextMarketplaceDay = (at: Date) => new Date(Date.parse(`${marketplaceDay(at)}T00:00:00Z`) + 86_400_000);

/** The offer's revisions on `day`: its count if it was last revised that day, 0 otherwise. */
export const revisionsOn = (offer: { revisionDay: string | null; revisionsToday: number }, day: string) => (offer.revisionDay === day ? offer.revisionsToday : 0);
