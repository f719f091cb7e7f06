import { afterEach, describe, expect, it, vi } from "vitest";
import type { Session } from "@/server/auth/session";

// Who may open the sandbox pages (the mail outbox, the hosted payment page, the Google stand-in): SECURITY-REVIEW C1.
// Each case loads the rule with its own configuration, as a server start-up would.

async function ruleWith(environment: "development" | "staging", integrations: "sandbox" | "live" = "sandbox") {
  vi.stubEnv("ENVIRONMENT", environment);
  vi.stubEnv("INTEGRATIONS", integrations);
  if (integrations === "live") {
    vi.stubEnv("AUTH_URL", "https://shop.test");
    vi.stubEnv("SMTP_URL", "smtp://127.0.0.1:2525");
  }
  vi.stubEnv("SHOP_FRONT_DOOR", "1");
  vi.resetModules();
  return (await import("@/server/integrations/sandbox-access")).canUseSandboxPages;
}

const from = (address: string, extra: Record<string, string> = {}) => new Headers({ ...extra, "x-shop-client": address });
const staff: Session = { user: { id: "a", name: "Staff", email: "staff@example.com", image: null, role: "ADMIN" }, expires: new Date(Date.now() + 60_000) };
const customer: Session = { user: { ...staff.user, role: "USER" }, expires: staff.expires };

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("the sandbox pages", () => {
  it("are open to a developer on this machine", async () => {
    const canUse = await ruleWith("development");
    expect(canUse(from("127.0.0.1"), null)).toBe(true);
    expect(canUse(from("::1"), null)).toBe(true);
    expect(canUse(from("::ffff:127.0.0.1"), customer)).toBe(true);
  });

  it("are not found for anyone else, whatever forwarding headers they send", async () => {
    const canUse = await ruleWith("development");
    expect(canUse(from("203.0.113.5"), null)).toBe(false);
    expect(canUse(from("203.0.113.5", { "x-forwarded-for": "127.0.0.1", "x-real-ip": "127.0.0.1" }), customer)).toBe(false);
    expect(canUse(from("192.168.1.20"), null)).toBe(false);
  });

  it("are open to staff from anywhere, so a staging shop can be tried out", async () => {
    expect((await ruleWith("development"))(from("203.0.113.5"), staff)).toBe(true);
    const staging = await ruleWith("staging");
    expect(staging(from("203.0.113.5"), staff)).toBe(true);
    // Staging is no developer's machine: loopback alone does not do there.
    expect(staging(from("127.0.0.1"), null)).toBe(false);
  });

  it("do not exist with live integrations", async () => {
    const canUse = await ruleWith("development", "live");
    expect(canUse(from("127.0.0.1"), staff)).toBe(false);
  });
});
