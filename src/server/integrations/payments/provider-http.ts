import type { z } from "zod";
import { PaymentProviderError } from "./port";

// A provider that has not answered in this time is treated as unreachable; the caller's retry decides what next.
const providerTimeoutMs = 30_000;

/** Sends one request to a payment provider; a provider that cannot be reached becomes a PaymentProviderError. */
export async function sendToProvider(provider: string, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(providerTimeoutMs) });
  } catch (error) {
    throw new PaymentProviderError(provider, null, `${provider} could not be reached: ${error instanceof Error ? error.message : String(error)}`, undefined, { cause: error });
  }
}

/** The JSON a provider answered with; an empty answer reads as `{}`. */
export function jsonOf(text: string): unknown {
  return text ? JSON.parse(text) : {};
}

/** A provider's error document read with its schema; empty when the body is not one (a proxy's HTML page, say). */
export function errorDocumentOf<T extends object>(schema: z.ZodType<T>, text: string): Partial<T> {
  try {
    return schema.parse(JSON.parse(text));
  } catch {
    return {};
  }
}
