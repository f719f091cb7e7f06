import { AppError } from "@/server/errors";
import { readSession } from "@/server/auth/session";
import { getDb } from "@/server/db/client";
import { getSandboxIdentity } from "@/server/integrations/identity/identity";
import { sandboxGoogleAccountInput, sandboxGooglePath, type AuthorizationRequest } from "@/server/integrations/identity/sandbox";
import { FORM_BODY_LIMIT, payloadTooLarge, readTextWithin } from "@/server/http/request-guards";
import { canUseSandboxPages } from "@/server/integrations/sandbox-access";

function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { Location: location } });
}

/**
 * The tester's choice on the stand-in's page: back to the shop's sign-in callback with a code for the chosen
 * address, or back to the page with what stood in the way (a staff address, an address that is not one).
 *
 * A plain form post answered with a redirect, so that the browser itself follows it to the callback and keeps the
 * session cookie Auth.js sets there; Next.js follows a server action's redirect on the server, and the cookie would
 * never reach the browser.
 */
export async function POST(request: Request): Promise<Response> {
  const identity = getSandboxIdentity();
  // The page answers 404 to whoever may not use it; its form must not be reachable around it.
  if (!identity || !canUseSandboxPages(request.headers, await readSession(getDb(), request.headers))) {
    return new Response("Not found", { status: 404 });
  }
  // The page's form: an address, a name and the authorization request it came with.
  const body = await readTextWithin(request, FORM_BODY_LIMIT);
  if (body === null) return payloadTooLarge(FORM_BODY_LIMIT);
  const form = new URLSearchParams(body);
  const query = String(form.get("request") ?? "");
  let authorization: AuthorizationRequest;
  try {
    authorization = identity.readAuthorizationRequest(new URLSearchParams(query));
  } catch (error) {
    if (error instanceof AppError) return new Response(error.message, { status: 400 });
    throw error;
  }
  const page = `${sandboxGooglePath}/authorize?${query}`;

  const chosen = sandboxGoogleAccountInput.safeParse({ email: form.get("email"), name: form.get("name") ?? undefined });
  if (!chosen.success) return seeOther(`${page}&notice=invalid-email`);
  try {
    return seeOther(await identity.authorize(authorization, chosen.data));
  } catch (error) {
    if (error instanceof AppError && error.code === "FORBIDDEN") return seeOther(`${page}&notice=staff&address=${encodeURIComponent(chosen.data.email)}`);
    throw error;
  }
}
