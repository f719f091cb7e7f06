import { describe, expect, it } from "vitest";
import { issueVisitorToken, manageVisitorToken, verifyVisitorToken, VISITOR_TOKEN_RENEWAL_GRACE_SECONDS, VISITOR_TOKEN_TTL_SECONDS } from "./service";
import { decodeJwt } from "jose";

const secret = "a-test-secret-of-at-least-thirty-two-characters";
const now = new Date("2025-03-01T12:00:00Z");
const later = (seconds: number) => new Date(now.getTime() + seconds * 1000);

describe("visitor tokens", () => {
  it("carry an exp claim in seconds, one TTL after issue", async () => {
    const token = await issueVisitorToken(secret, "visitor-1", now);
    expect(decodeJwt(token).exp).toBe(now.getTime() / 1000 + VISITOR_TOKEN_TTL_SECONDS);
    expect(await verifyVisitorToken(secret, token, now)).toMatchObject({ visitorId: "visitor-1" });
  });

  it("are refused when missing, expired, forged or signed with another secret", async () => {
    const token = await issueVisitorToken(secret, "visitor-1", now);
    expect(await verifyVisitorToken(secret, undefined, now)).toBeNull();
    expect(await verifyVisitorToken(secret, token, later(VISITOR_TOKEN_TTL_SECONDS))).toBeNull();
    expect(await verifyVisitorToken("another-secret-of-at-least-thirty-two-chars", token, now)).toBeNull();
    expect(await verifyVisitorToken(secret, token.slice(0, -2) + "xx", now)).toBeNull();
  });

  it("keep the visitor across a refresh, also shortly after running out, but not after the grace period", async () => {
    const token = await issueVisitorToken(secret, "visitor-1", now);
    const refreshed = await manageVisitorToken(secret, token, later(VISITOR_TOKEN_TTL_SECONDS - 20));
    expect(decodeJwt(refreshed).sub).toBe("visitor-1");
    const lapsed = await manageVisitorToken(secret, token, later(VISITOR_TOKEN_TTL_SECONDS + 3600));
    expect(decodeJwt(lapsed).sub).toBe("visitor-1");
    const stale = await manageVisitorToken(secret, token, later(VISITOR_TOKEN_TTL_SECONDS + VISITOR_TOKEN_RENEWAL_GRACE_SECONDS + 1));
    expect(decodeJwt(stale).sub).not.toBe("visitor-1");
  });

  it("start a new visitor for no token or a forged one", async () => {
    const fresh = await manageVisitorToken(secret, undefined, now);
    expect(await verifyVisitorToken(secret, fresh, now)).not.toBeNull();
    const forged = await issueVisitorToken("another-secret-of-at-least-thirty-two-chars", "visitor-1", now);
    expect(decodeJwt(await manageVisitorToken(secret, forged, now)).sub).not.toBe("visitor-1");
  });
});
