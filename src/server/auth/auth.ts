import "server-only";
import { env } from "@/env";
import { shopUrl } from "@/server/config/shop-url";
import { getDb } from "@/server/db/client";
import { googleSignIn } from "@/server/integrations/identity/identity";
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
    visitorTokenSecret: env.TOKEN_SECRET,
    shopName: env.SHOP_NAME,
    google: googleSignIn(),
    origin: shopUrl(),
  };
});
