import { createHash } from "node:crypto";
import { startProviderServer, type ProviderAnswer, type ReceivedRequest } from "./provider-server";

// A stand-in for Resend's e-mail API (PROVIDERS.md section 9): `POST /emails` answering `{id}`, errors as
// `{statusCode, name, message}`, idempotency keys kept as Resend keeps them (the same key and body: the first answer
// again and nothing sent; the same key and another body: 409 invalid_idempotent_request), and its rate limit (429
// with `retry-after` and `ratelimit-*` headers) when a test asks for it. `holdAnswers` keeps the answers back (an
// e-mail taken, the shop not told yet) until it is called again with null: the window a crash falls into.

export const resendApiKey = "re_123456789_TestKeyForTheStandIn";

export type SentEmail = { id: string; from: string; to: string[]; subject: string; html: string; text: string; tags: { name: string; value: string }[] };

export const resendError = (statusCode: number, name: string, message: string, headers?: Record<string, string>): ProviderAnswer => ({
  status: statusCode,
  body: { statusCode, name, message },
  ...(headers ? { headers } : {}),
});

export async function startResendStandIn() {
  const apiKey = resendApiKey;
  const sent: SentEmail[] = [];
  const keys = new Map<string, { bodyHash: string; answer: ProviderAnswer }>();
  /** How the next requests are answered instead of sending: rate limited, or "the first request with this key is still running". */
  const upcoming: ProviderAnswer[] = [];
  let held: Promise<void> = Promise.resolve();
  let release = () => {};
  /** Keeps the answers to e-mails taken from here on back until called with `false`. */
  const holdAnswers = (hold: boolean) => {
    if (hold) held = new Promise<void>((resolve) => (release = resolve));
    else release();
  };
  const handle = async (request: ReceivedRequest): Promise<ProviderAnswer> => {
    if (!request.headers["user-agent"]) return resendError(403, "missing_user_agent", "A User-Agent header is required.");
    const authorization = request.headers.authorization;
    if (!authorization) return resendError(401, "missing_api_key", "Missing API key in the authorization header.");
    if (authorization !== `Bearer ${apiKey}`) return resendError(403, "invalid_api_key", "API key is invalid");
    // The stand-in's key is a sending-access key, as the shop's should be: it may send, not read the account.
    if (request.method === "GET" && request.path === "/domains") return resendError(401, "restricted_api_key", "This API key is restricted to only send emails");
    if (request.method !== "POST" || request.path !== "/emails") return resendError(404, "not_found", "The requested endpoint does not exist.");
    const next = upcoming.shift();
    if (next) return next;
    const body = request.json as Partial<SentEmail> | undefined;
    const missing = (["from", "to", "subject"] as const).filter((field) => !body?.[field]);
    if (!body || missing.length > 0) return resendError(422, "missing_required_field", `Missing \`${missing.join("`, `")}\` field.`);
    if (!body.to!.every((address) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(address))) {
      return resendError(422, "validation_error", "Invalid `to` field. The email address needs to follow the `email@example.com` or `Name <email@example.com>` format.");
    }
    const key = request.headers["idempotency-key"] as string | undefined;
    const bodyHash = createHash("sha256").update(request.body).digest("hex");
    const earlier = key ? keys.get(key) : undefined;
    if (earlier) {
      return earlier.bodyHash === bodyHash ? earlier.answer : resendError(409, "invalid_idempotent_request", "Same idempotency key used with a different request payload.");
    }
    const email = { ...(body as Omit<SentEmail, "id">), id: `4ef9a417-02e9-4d39-ad75-9611e0fcc33${sent.length}` };
    sent.push(email);
    const answer = { status: 200, body: { id: email.id } };
    if (key) keys.set(key, { bodyHash, answer });
    await held;
    return answer;
  };
  const server = await startProviderServer(handle);
  return { ...server, sent, upcoming, holdAnswers, reset: () => ((sent.length = 0), keys.clear(), (upcoming.length = 0), holdAnswers(false)) };
}
