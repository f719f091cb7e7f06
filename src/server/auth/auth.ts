import "server-only";
import { env } from "@/env";
import { getDb } from "@/server/db/client";
import { getMail } from "@/server/integrations/mail/mail";
import { logger } from "@/server/logger";
import { createAuthHandlers } from "./handlers";

/** The shop's Auth.js, built on first use from the validated configuration. */
export const { GET, POST } = createAuthHandlers(() => {
  const db = getDb();
  return {
    db,
    mail: getMail(db),
    log: logger.child({ area: "auth" }),
    secret: env.AUTH_SECRET,
    shopName: env.SHOP_NAME,
    google: env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET ? { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET } : undefined,
    // On the embedded default the shop answers on whatever address it was started with; live deployments name
    // theirs in AUTH_URL (or set AUTH_TRUST_HOST behind a proxy that sets the host).
    trustHost: env.INTEGRATIONS === "sandbox",
  };
});
