/** Runs once when a server process starts, before it serves requests. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { prepareServer } = await import("@/server/startup");
  await prepareServer();
}
