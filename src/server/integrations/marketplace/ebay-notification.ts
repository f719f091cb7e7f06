import { createHash, createPublicKey, verify, type KeyObject } from "node:crypto";
import { z } from "zod";
import { read, type EbayClient } from "./ebay-client";
import { MarketplaceError, type MarketplaceNotice, type NotificationReadOptions } from "./port";

/**
 * eBay's Notification API as the shop's endpoint sees it (PROVIDERS.md section 5): the endpoint check, and the
 * `X-EBAY-SIGNATURE` on each message, verified with the public key eBay names in it.
 */

/**
 * eBay's key ids stay valid for a long time; an hour keeps a key off the Notification API's daily limit. A key id
 * eBay does not know is remembered as long, so that a stranger sending made-up ids costs one lookup each, not one per
 * message (SECURITY-REVIEW N-L2).
 */
export const publicKeyCacheMs = 60 * 60_000;
/** At most this many unknown key ids are remembered; the oldest go first. */
const unknownKeysKept = 1000;
/** eBay's key ids are UUIDs; anything else is not worth asking eBay about. */
const keyIdFormat = /^[A-Za-z0-9-]{8,64}$/;
/**
 * A notification is taken for this long after eBay published it (each delivery attempt is published anew), and a
 * little before, for clocks that disagree: a genuine message captured and sent again later is refused.
 */
export const notificationFreshMs = 24 * 60 * 60_000;
const clockSkewMs = 10 * 60_000;

const signatureHeader = z.object({ alg: z.string(), kid: z.string().min(1), signature: z.string().min(1), digest: z.string() });
const publicKeyAnswer = z.object({ algorithm: z.string(), digest: z.string(), key: z.string() });
const message = z.object({
  metadata: z.object({ topic: z.string() }),
  notification: z
    .object({
      publishDate: z.iso.datetime({ offset: true }),
      data: z.object({ orderId: z.string().optional(), username: z.string().optional(), userId: z.string().optional() }).loose().optional(),
    })
    .loose(),
});

type PublicKey = { algorithm: string; digest: string; key: KeyObject; fetchedAt: number };

/** The answer to eBay's endpoint check: hex SHA-256 of the challenge code, the verification token and the endpoint, in that order. */
export function challengeResponse(challengeCode: string, verificationToken: string, endpointUrl: string): string {
  return createHash("sha256").update(challengeCode).update(verificationToken).update(endpointUrl).digest("hex");
}

/**
 * eBay sends the key as one line between the PEM markers; Node wants the body in lines of 64 characters. Any PEM is
 * read the same way, so a key that comes with line breaks reads too.
 */
function publicKeyOf(pem: string): KeyObject {
  const body = pem.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, "").replace(/\s+/g, "");
  return createPublicKey(`-----BEGIN PUBLIC KEY-----\n${body.match(/.{1,64}/g)?.join("\n") ?? ""}\n-----END PUBLIC KEY-----\n`);
}

/** eBay's digest names (`SHA1`, `SHA256`) as Node's. */
const nodeDigest = (digest: string) => digest.toLowerCase().replace("-", "");

export function notificationReader(client: EbayClient, now: () => Date) {
  const keys = new Map<string, PublicKey>();
  const unknownKeys = new Map<string, number>();

  /** The public key of a key id, from the cache or eBay; null when eBay does not know the id. */
  async function publicKey(kid: string, options: NotificationReadOptions): Promise<PublicKey | null> {
    const at = now().getTime();
    const cached = keys.get(kid);
    if (cached && at - cached.fetchedAt < publicKeyCacheMs) return cached;
    const unknownSince = unknownKeys.get(kid);
    if (unknownSince !== undefined && at - unknownSince < publicKeyCacheMs) return null;
    if (options.mayLookUpKey && !(await options.mayLookUpKey())) {
      throw new MarketplaceError("getPublicKey", 429, [], `Too many of eBay's public keys looked up this minute to look up ${kid}; eBay delivers the message again`);
    }
    let body: unknown;
    try {
      body = await client.call("getPublicKey", { method: "GET", path: `/commerce/notification/v1/public_key/${encodeURIComponent(kid)}` }, "application");
    } catch (error) {
      if (error instanceof MarketplaceError && (error.status === 404 || error.status === 400)) {
        unknownKeys.delete(kid);
        unknownKeys.set(kid, at);
        if (unknownKeys.size > unknownKeysKept) unknownKeys.delete(unknownKeys.keys().next().value!);
        return null;
      }
      throw error;
    }
    const answer = read("getPublicKey", publicKeyAnswer, body);
    let key: KeyObject;
    try {
      key = publicKeyOf(answer.key);
    } catch (error) {
      throw new MarketplaceError("getPublicKey", null, [], `eBay's public key ${kid} could not be read: ${answer.key.slice(0, 80)}`, { cause: error });
    }
    const entry = { algorithm: answer.algorithm, digest: answer.digest, key, fetchedAt: now().getTime() };
    keys.set(kid, entry);
    return entry;
  }

  /**
   * The notice in a message, or null when its signature is missing or wrong, or it was published too long ago (or
   * names a key id eBay would not give). eBay's own SDK verifies the signature over the message re-serialised
   * (`JSON.stringify(JSON.parse(body))`) rather than the bytes received, so both are accepted. Throws a
   * MarketplaceError when eBay cannot be asked for the key, or no more lookups may be made now, so that eBay delivers
   * the message again.
   */
  return async function readNotification(headers: Headers, body: string, options: NotificationReadOptions = {}): Promise<MarketplaceNotice | null> {
    const header = headers.get("x-ebay-signature");
    if (!header) return null;
    const signed = signatureHeader.safeParse(jsonOrNull(Buffer.from(header, "base64").toString("utf8")));
    const parsedBody = message.safeParse(jsonOrNull(body));
    if (!signed.success || !parsedBody.success || !keyIdFormat.test(signed.data.kid)) return null;
    const age = now().getTime() - Date.parse(parsedBody.data.notification.publishDate);
    if (age > notificationFreshMs || age < -clockSkewMs) return null;
    const key = await publicKey(signed.data.kid, options);
    // ECDSA is the only algorithm eBay signs with.
    if (!key || key.algorithm.toUpperCase() !== "ECDSA") return null;
    const signature = Buffer.from(signed.data.signature, "base64");
    const genuine = [body, JSON.stringify(JSON.parse(body))].some((text) => {
      try {
        return verify(nodeDigest(key.digest), Buffer.from(text, "utf8"), key.key, signature);
      } catch {
        return false;
      }
    });
    if (!genuine) return null;
    const { metadata, notification } = parsedBody.data;
    const { orderId, username, userId } = notification.data ?? {};
    if (metadata.topic === "MARKETPLACE_ACCOUNT_DELETION") return username ? { kind: "accountDeletion", username, userId: userId ?? "" } : { kind: "other", topic: metadata.topic };
    return orderId ? { kind: "order", orderId } : { kind: "other", topic: metadata.topic };
  };
}

function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
