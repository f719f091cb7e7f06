import { z } from "zod";
import type { Carrier } from "@/lib/enums";
import { jsonOf } from "@/server/integrations/payments/provider-http";
import { CarrierError, carrierNames } from "./port";

// A carrier that has not answered in this time is treated as unreachable; the caller's retry decides what next.
const carrierTimeoutMs = 30_000;

export type CarrierRequest = { method: "GET" | "POST" | "DELETE"; url: string; headers: Record<string, string>; body?: string };

/**
 * One carrier's HTTP: sends a request and returns the JSON it answered, or throws a CarrierError whose message says
 * what staff can do about it. `errorTexts` reads the carrier's own error document (any JSON, `{}` when the body was
 * not JSON); `credentials` names the settings to check when the carrier refuses them.
 */
export function carrierHttp(config: { carrier: Carrier; credentials: string; errorTexts: (body: unknown) => string[] }) {
  const name = carrierNames[config.carrier];

  return async function send(request: CarrierRequest): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body, signal: AbortSignal.timeout(carrierTimeoutMs) });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new CarrierError(config.carrier, 0, `${name} could not be reached (${why}); try again in a few minutes.`, undefined, { cause: error });
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = jsonOf(text);
    } catch (error) {
      if (response.ok) throw new CarrierError(config.carrier, 0, `${name} answered with something that is not JSON; try again later.`, text.slice(0, 500), { cause: error });
      body = {};
    }
    if (response.ok) return body;
    throw new CarrierError(config.carrier, response.status, staffMessage(name, config.credentials, response.status, config.errorTexts(body)), body);
  };
}

function staffMessage(name: string, credentials: string, status: number, texts: string[]): string {
  const said = texts.length > 0 ? texts.join("; ") : `HTTP ${status}`;
  if (status === 401 || status === 403) return `${name} refused the shop's credentials (${said}): check ${credentials}.`;
  if (status === 429) return `${name} is limiting the shop's requests (too many in a short time); try again in a few minutes.`;
  if (status >= 500) return `${name} could not handle the request (${said}); try again later.`;
  return `${name} refused the request: ${said}`;
}

/** A list the carrier sends as a bare object when it has one item, or leaves out when it has none. */
export const oneOrMany = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]), z.array(item));
