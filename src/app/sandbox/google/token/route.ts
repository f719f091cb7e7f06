import { sandboxIdentityRoute } from "@/server/integrations/identity/identity";

export const POST = sandboxIdentityRoute((identity, request) => identity.token(request));
