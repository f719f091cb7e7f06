import { sandboxIdentityRoute } from "@/server/integrations/identity/identity";

export const GET = sandboxIdentityRoute((identity, request) => identity.userinfo(request));
