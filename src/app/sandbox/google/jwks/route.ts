import { sandboxIdentityRoute } from "@/server/integrations/identity/identity";

// The keys follow AUTH_SECRET at run time, never the one the shop was built with.
export const dynamic = "force-dynamic";

export const GET = sandboxIdentityRoute((identity) => identity.jwks());
