import { sandboxIdentityRoute } from "@/server/integrations/identity/identity";

// The issuer follows the shop's address at run time, never the one it was built with.
export const dynamic = "force-dynamic";

export const GET = sandboxIdentityRoute((identity) => identity.discovery());
