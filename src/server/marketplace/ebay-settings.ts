import "server-only";
import type { Db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { startBulkUpdate } from "./bulk-update";
import { saveChannelSettings } from "./channel-settings";
import type { ChannelSettingsInput, ChannelSettingsSaved } from "./schemas";

/**
 * Saving the eBay settings on /admin/ebay. A new markup changes the eBay price of every listing without a fixed eBay
 * price, so it starts a bulk update of the prices in the same transaction (one revision per listing, within eBay's
 * limits, resumable). When one is running already, or nothing is listed, the settings are saved and staff are told.
 */
export async function saveEbaySettings(db: Db, input: ChannelSettingsInput, userId: string): Promise<ChannelSettingsSaved> {
  return db.transaction(async (tx) => {
    const { settings, markupChanged } = await saveChannelSettings(tx, input, userId);
    if (!markupChanged) return { settings, markupChanged, bulkRunStarted: false, message: null };
    try {
      // A savepoint: a refused start leaves the saved settings alone.
      await startBulkUpdate(tx, { price: true, quantity: false, description: false }, { userId });
      return { settings, markupChanged, bulkRunStarted: true, message: "The new markup is on its way to eBay: a bulk price update started." };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // Nothing listed: nothing on eBay to reprice, and every publish from now on takes the new markup.
      if (error.code === "PRECONDITION_FAILED") return { settings, markupChanged, bulkRunStarted: false, message: "Nothing is listed on eBay yet: products take the new markup when published." };
      return { settings, markupChanged, bulkRunStarted: false, message: `Saved. eBay's prices follow with a bulk price update, which could not start now: ${error.message}` };
    }
  });
}
