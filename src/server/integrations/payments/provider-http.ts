import type { z } from "zod";
import { PaymentProviderError } from "./port";

// A provider that has not answered in this time is treated as unreachable; the caller's retry decides what next.
const providerTimeoutMs = 30_000;

/** Sends one request to a payment provider; a provider that cannot be reached becomes a PaymentProviderError. */
export async function sendToProvider(provider: string, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(providerTimeoutMs) });
  } catch (error) {
    throw new PaymentProviderError(provider, null, `${provider} could not be reached: ${reasonOf(error)}`, undefined, { cause: error });
  }
}

/** A request to a provider's JSON API: the headers it sends, and the body, when there is one, as JSON with its type. */
export function jsonRequest(method: string, headers: Record<string, string>, body?: unknown): RequestInit {
  return {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
}

/**
 * The body of a provider's answer. One cut off while it was read (the connection dropped, the time ran out) is no
 * answer: a PaymentProviderError without a status, since the request may have done its work all the same.
 */
export async function bodyOf(provider: string, response: Response): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    throw new PaymentProviderError(provider, null, `${provider}'s answer was cut off: ${reasonOf(error)}`, undefined, { cause: error });
  }
}

/** The JSON a provider answered with; an empty answer reads as `{}`. */
export function jsonOf(text: string): unknown {
  return text ? JSON.parse(text) : {};
}

/**
 * A provider's successful answer read as JSON with its schema. An answer that does not read is as good as none:
 * the request may have done its work, but we cannot tell what came of it, so it becomes a PaymentProviderError
 * without a status rather than a parse error.
 */
export function answerOf<T>(provider: string, schema: z.ZodType<T>, text: string): T {
  try {
    return schema.parse(jsonOf(text));
  } catch (error) {
    throw new PaymentProviderError(provider, null, `${provider} answered with something we could not read: ${text.slice(0, 200)}`, undefined, { cause: error });
  }
}

/** A provider's error document read with its schema; empty when the body is not one (a proxy's HTML page, say). */
export function errorDocumentOf<T extends object>(schema: z.ZodType<T>, text: string): Partial<T> {
  try {
    return schema.parse(JSON.parse(text));
  } catch {
    return {};
  }
}

/** Why a request to an outside service got no answer, in words for the error it becomes (and the logbook). */
export function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // Node's fetch says only "fetch failed"; what went wrong (refused, reset, closed) is in its cause.
  const cause = error.cause instanceof Error ? error.cause.message : null;
  return cause && cause !== error.message ? `${error.message} (${cause})` : error.message;
}
