import { SignJWT } from "jose";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  MIN_TIME_BETWEEN_REFRESHES_MS,
  refreshDelay,
  refreshDelayOfFreshToken,
  REFRESH_BEFORE_EXPIRY_MS,
  RETRY_AFTER_FAILURE_MS,
  startTokenLifecycle,
} from "./token-lifecycle";

const T0 = new Date("2025-03-01T12:00:00Z").getTime();
const key = new TextEncoder().encode("a-secret-that-is-long-enough-for-hs256-signing");

function tokenExpiringAt(ms: number): Promise<string> {
  return new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setExpirationTime(Math.floor(ms / 1000)).sign(key);
}

/** A token as the server issues it: `iat` and `exp` on the server's clock. */
function tokenIssuedAt(ms: number, lifetimeMs: number): Promise<string> {
  const issuedAt = Math.floor(ms / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + lifetimeMs / 1000)
    .sign(key);
}

const TWO_HOURS_MS = 2 * 60 * 60_000;

describe("refreshDelay", () => {
  it("is zero with no token, an undecodable token or an expired one", async () => {
    expect(refreshDelay(null, T0)).toBe(0);
    expect(refreshDelay("not.a.token", T0)).toBe(0);
    expect(refreshDelay(await tokenExpiringAt(T0 - 1000), T0)).toBe(0);
  });
  it("is 30 seconds before expiry for a valid token, and zero once that moment has passed", async () => {
    expect(refreshDelay(await tokenExpiringAt(T0 + 10 * 60_000), T0)).toBe(10 * 60_000 - REFRESH_BEFORE_EXPIRY_MS);
    expect(refreshDelay(await tokenExpiringAt(T0 + 10_000), T0)).toBe(0);
  });
});

describe("refreshDelayOfFreshToken", () => {
  it("is 30 seconds before expiry counted from the token's iat, whatever the browser's clock says", async () => {
    const token = await tokenIssuedAt(T0, 60 * 60_000);
    expect(refreshDelayOfFreshToken(token, T0)).toBe(60 * 60_000 - REFRESH_BEFORE_EXPIRY_MS);
    expect(refreshDelayOfFreshToken(token, T0 + TWO_HOURS_MS)).toBe(60 * 60_000 - REFRESH_BEFORE_EXPIRY_MS);
  });
  it("never asks again sooner than the floor, even for a token that is about to run out", async () => {
    expect(refreshDelayOfFreshToken(await tokenIssuedAt(T0, 20_000), T0)).toBe(MIN_TIME_BETWEEN_REFRESHES_MS);
    expect(refreshDelayOfFreshToken(await tokenExpiringAt(T0 - 1000), T0)).toBe(MIN_TIME_BETWEEN_REFRESHES_MS);
  });
});

describe("startTokenLifecycle with a fake clock", () => {
  let stored: string | null;
  let stop: (() => void) | undefined;
  // Signed before the clock is faked: signing waits on the crypto thread pool, which fake timers cannot advance.
  let freshTokens: string[];
  beforeAll(async () => {
    freshTokens = [await tokenIssuedAt(T0, 60 * 60_000), await tokenIssuedAt(T0 + 60 * 60_000, 60 * 60_000)];
  });
  /** A server that hands out the next fresh token on each call. */
  function tokenServer() {
    let issued = 0;
    return vi.fn(async (_current?: string) => freshTokens[Math.min(issued++, freshTokens.length - 1)]!);
  }

  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    stored = null;
  });
  afterEach(() => {
    stop?.();
    vi.useRealTimers();
  });

  function start(refresh: (current: string | undefined) => Promise<string>) {
    stop = startTokenLifecycle({ read: () => stored, write: (t) => (stored = t), refresh });
  }

  it("asks for a token at once when there is none, then refreshes 30 s before the new one runs out", async () => {
    const refresh = tokenServer();
    start(refresh);
    await vi.advanceTimersByTimeAsync(0);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(refresh).toHaveBeenLastCalledWith(undefined);
    const first = stored;
    expect(first).not.toBeNull();

    await vi.advanceTimersByTimeAsync(60 * 60_000 - REFRESH_BEFORE_EXPIRY_MS - 1000);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(refresh).toHaveBeenCalledTimes(2);
    expect(refresh).toHaveBeenLastCalledWith(first);
  });

  it("replaces an expired token at once, sending it along so the server can keep the visitor", async () => {
    stored = await tokenExpiringAt(T0 - 5 * 60_000);
    const expired = stored;
    const refresh = tokenServer();
    start(refresh);
    await vi.advanceTimersByTimeAsync(0);
    expect(refresh).toHaveBeenCalledWith(expired);
    expect(stored).not.toBe(expired);
  });

  it("refreshes at once a token that is within 30 s of expiry", async () => {
    stored = await tokenExpiringAt(T0 + 20_000);
    const refresh = tokenServer();
    start(refresh);
    await vi.advanceTimersByTimeAsync(0);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it("waits until 30 s before expiry with a valid token", async () => {
    stored = await tokenExpiringAt(T0 + 5 * 60_000);
    const refresh = tokenServer();
    start(refresh);
    await vi.advanceTimersByTimeAsync(5 * 60_000 - REFRESH_BEFORE_EXPIRY_MS - 1);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it("treats an undecodable token as missing", async () => {
    stored = "garbage";
    const refresh = tokenServer();
    start(refresh);
    await vi.advanceTimersByTimeAsync(0);
    expect(refresh).toHaveBeenCalledWith(undefined);
  });

  it("tries again after a failed refresh instead of giving up", async () => {
    const refresh = vi.fn().mockRejectedValueOnce(new Error("offline")).mockImplementation(async () => freshTokens[0]!);
    stop = startTokenLifecycle({ read: () => stored, write: (t) => (stored = t), refresh, onError: () => {} });
    await vi.advanceTimersByTimeAsync(0);
    expect(stored).toBeNull();
    await vi.advanceTimersByTimeAsync(RETRY_AFTER_FAILURE_MS);
    expect(refresh).toHaveBeenCalledTimes(2);
    expect(stored).not.toBeNull();
  });

  it("refreshes once, not in a loop, when the browser's clock is two hours ahead of the server's", async () => {
    vi.setSystemTime(T0 + TWO_HOURS_MS);
    const refresh = tokenServer();
    start(refresh);
    await vi.advanceTimersByTimeAsync(2500);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(stored).toBe(freshTokens[0]);

    await vi.advanceTimersByTimeAsync(60 * 60_000 - REFRESH_BEFORE_EXPIRY_MS - 2500);
    expect(refresh).toHaveBeenCalledTimes(2);
  });
});
