/** What the start-up hook leaves for the front door (scripts/serve.mjs), which runs Next in this same process. */
type ShopProcess = {
  /**
   * Settles once the shop is ready, with the function that stops its job worker, letting running jobs finish; rejects
   * when it could not start, so that the front door exits instead of listening.
   */
  shopServerStarted?: Promise<() => Promise<void>>;
};

/** Runs once when a server process starts, before it serves requests. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const shop = globalThis as ShopProcess;
  shop.shopServerStarted ??= import("@/server/startup").then(({ prepareServer }) => prepareServer());
  await shop.shopServerStarted;
}
