import { z } from "zod";
import { errorMessage } from "@/lib/error-message";
import { MailDeliveryError, type MailPort } from "./port";

/**
 * Mail through Resend's e-mail API (PROVIDERS.md section 9), on its documented REST endpoint rather than the SDK:
 * one endpoint, and a plain `fetch` talks to the local stand-in the tests run as well as to Resend.
 *
 * `POST {baseUrl}/emails` with the API key as a bearer token and a User-Agent (Resend answers 403 without one). A
 * message's `idempotencyKey` goes in the `Idempotency-Key` header: Resend answers a repeat with the first answer and
 * sends nothing, so a job that retries after a lost answer never mails the customer twice.
 */

const defaultBaseUrl = "https://api.resend.com";
const service = "Resend";
// A request Resend has not answered in this time is given up; the caller's retry (with the same key) is safe.
const requestTimeoutMs = 30_000;

/** How long one `send` waits in all for Resend's rate limit or a concurrent request with the same key, before giving up. */
const defaultMaxWaitMs = 10_000;
/** When Resend asks us to slow down without saying for how long: its default limit is a few requests a second. */
const defaultBackoffMs = 1_000;

const sentResponse = z.object({ id: z.string() });
const errorResponse = z.object({ statusCode: z.number().optional(), name: z.string().optional(), message: z.string().optional() });

export type ResendMailOptions = {
  apiKey: string;
  from: string;
  baseUrl?: string;
  /** What the shop calls itself to Resend; required by Resend, ASCII only. */
  userAgent?: string;
  /** Told when a repeat of an e-mail already sent was answered without sending; a warning in the shop's log. */
  onAlreadySent?: (message: { kind: string; idempotencyKey: string; reason: string }) => void;
  /** For tests: how long one send may wait for the rate limit in all, and how it waits. */
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
};

export function createResendMail(options: ResendMailOptions): MailPort {
  const base = (options.baseUrl ?? defaultBaseUrl).replace(/\/+$/, "");
  const url = `${base}/emails`;
  const maxWaitMs = options.maxWaitMs ?? defaultMaxWaitMs;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  return {
    /**
     * `GET /domains`, which sends nothing: a full-access key lists the domains, and a key made for sending only
     * (what the shop needs, and should have) is refused with 401 `restricted_api_key`, which proves it valid all
     * the same. A wrong key is 403 `invalid_api_key`.
     */
    async probe() {
      let response: Response;
      try {
        response = await fetch(`${base}/domains`, {
          headers: { authorization: `Bearer ${options.apiKey}`, "user-agent": options.userAgent ?? "balance-and-crown-shop/1.0" },
          signal: AbortSignal.timeout(requestTimeoutMs),
        });
      } catch (error) {
        throw new MailDeliveryError(service, `${service} could not be reached: ${errorMessage(error)}`, { status: null, code: null }, { cause: error });
      }
      const text = await response.text();
      if (response.ok) return `${service} accepted the key (full access)`;
      const failure = errorFrom(response, text);
      if (failure.details.code === "restricted_api_key") return `${service} accepted the key (sending access only)`;
      throw new MailDeliveryError(service, failure.message.replace("refused the e-mail", "refused the key"), failure.details);
    },

    async send(message) {
      const headers: Record<string, string> = {
        authorization: `Bearer ${options.apiKey}`,
        "user-agent": options.userAgent ?? "balance-and-crown-shop/1.0",
        "content-type": "application/json",
        accept: "application/json",
        ...(message.idempotencyKey ? { "idempotency-key": message.idempotencyKey } : {}),
      };
      const body = JSON.stringify({
        from: options.from,
        to: [message.to],
        subject: message.subject,
        html: message.html,
        text: message.text,
        // Tags hold ASCII letters, digits, "_" and "-" only.
        tags: [{ name: "kind", value: message.kind.replace(/[^A-Za-z0-9_-]/g, "_") }],
      });

      let waited = 0;
      for (;;) {
        const response = await post(url, headers, body);
        const text = await response.text();
        if (response.ok) {
          sentResponse.parse(text ? JSON.parse(text) : {});
          return;
        }
        const failure = errorFrom(response, text);
        if (failure.details.code === "invalid_idempotent_request" && message.idempotencyKey) {
          // The key was used within 24 hours for an e-mail whose body differed (a link re-signed on the retry, say):
          // this e-mail was sent then, and sending it again is exactly what the key is there to prevent.
          options.onAlreadySent?.({ kind: message.kind, idempotencyKey: message.idempotencyKey, reason: failure.message });
          return;
        }
        const pause = failure.details.retryAfterSeconds === undefined ? defaultBackoffMs : failure.details.retryAfterSeconds * 1000;
        if (!waitsOut(failure) || waited + pause > maxWaitMs) throw failure;
        await sleep(pause);
        waited += pause;
      }
    },
  };
}

/** Resend's per-second rate limit and a repeat racing its first request pass in a moment; a used-up quota does not. */
function waitsOut(failure: MailDeliveryError): boolean {
  const { status, code } = failure.details;
  if (code === "concurrent_idempotent_requests") return true;
  return status === 429 && code !== "daily_quota_exceeded" && code !== "monthly_quota_exceeded";
}

async function post(url: string, headers: Record<string, string>, body: string): Promise<Response> {
  try {
    return await fetch(url, { method: "POST", headers, body, signal: AbortSignal.timeout(requestTimeoutMs) });
  } catch (error) {
    throw new MailDeliveryError(service, `${service} could not be reached: ${errorMessage(error)}`, { status: null, code: null }, { cause: error });
  }
}

/** Resend's error document (`{statusCode, name, message}`) as one readable error; `retry-after` is in seconds. */
function errorFrom(response: Response, text: string): MailDeliveryError {
  let parsed: z.infer<typeof errorResponse> = {};
  try {
    parsed = errorResponse.parse(JSON.parse(text));
  } catch {
    // Not Resend's document (a proxy's error page): the status and the start of the body say what happened.
  }
  const code = parsed.name ?? null;
  const detail = parsed.message ?? (text.slice(0, 200) || response.statusText);
  const retryAfter = Number(response.headers.get("retry-after"));
  return new MailDeliveryError(service, `${service} refused the e-mail (HTTP ${response.status}${code ? ` ${code}` : ""}): ${detail}`, {
    status: response.status,
    code,
    ...(Number.isFinite(retryAfter) && retryAfter >= 0 && response.headers.has("retry-after") ? { retryAfterSeconds: retryAfter } : {}),
  });
}
