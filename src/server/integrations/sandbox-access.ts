import "server-only";
import { env } from "@/env";
import type { UserRole } from "@/lib/enums";
import { clientAddress, isLoopbackAddress } from "@/server/http/client-address";

/**
 * Who may open a sandbox page (the mail outbox, the hosted payment page, the Google stand-in): pages that can sign
 * someone in or mark an order paid. Never with live integrations (production refuses sandboxes at start-up anyway).
 * Staff (ADMIN) may, so a staging shop can be tried out; otherwise only a developer on this machine
 * (ENVIRONMENT=development and a loopback client). Everyone else gets a 404, as if the page did not exist.
 */
export function canUseSandboxPages(headers: Headers, session: { user: { role: UserRole } } | null): boolean {
  if (env.INTEGRATIONS !== "sandbox" || env.ENVIRONMENT === "production") return false;
  if (session?.user.role === "ADMIN") return true;
  return env.ENVIRONMENT === "development" && isLoopbackAddress(clientAddress(headers));
}
