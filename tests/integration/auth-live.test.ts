import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startSmtpServer } from "../helpers/smtp-server";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

// The shop's own Auth.js route (src/server/auth/auth.ts) as a live deployment runs it: INTEGRATIONS=live with
// AUTH_URL, and mail over SMTP to a local mail server. Before the fix every /api/auth call answered 500
// (UntrustedHost), so nobody could sign in (SECURITY-REVIEW H1).

const AUTH_URL = "https://shop.test";
let t: TestDatabase;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let route: { GET: (request: Request) => Promise<Response>; POST: (request: Request) => Promise<Response> };

beforeAll(async () => {
  t = await createTestDatabase();
  smtp = await startSmtpServer();
  vi.stubEnv("INTEGRATIONS", "live");
  vi.stubEnv("ENVIRONMENT", "staging");
  vi.stubEnv("AUTH_URL", AUTH_URL);
  vi.stubEnv("SMTP_URL", `smtp://127.0.0.1:${smtp.port}`);
  vi.stubEnv("MAIL_FROM", "Balance & Crown <shop@shop.test>");
  vi.resetModules();
  // The route's process-wide database (src/server/db/client.ts) is this test's.
  (globalThis as { shopDatabase?: unknown }).shopDatabase = t.database;
  const { env } = await import("@/env");
  expect(env.INTEGRATIONS).toBe("live");
  route = await import("@/server/auth/auth");
});

afterAll(async () => {
  delete (globalThis as { shopDatabase?: unknown }).shopDatabase;
  vi.unstubAllEnvs();
  await smtp?.close();
  await t?.dispose();
});

describe("Auth.js with live integrations", () => {
  it("reads the session", async () => {
    const response = await route.GET(new Request("http://127.0.0.1:3000/api/auth/session", { headers: { host: "127.0.0.1:3000" } }));
    expect(response.status).toBe(200);
  });

  it("sends a sign-in link over SMTP on the configured address, whatever host the request came in on", async () => {
    const csrfResponse = await route.GET(new Request("http://127.0.0.1:3000/api/auth/csrf", { headers: { host: "evil.example" } }));
    expect(csrfResponse.status).toBe(200);
    const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string };
    const cookie = csrfResponse.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");

    const response = await route.POST(
      new Request("http://127.0.0.1:3000/api/auth/signin/nodemailer", {
        method: "POST",
        headers: { host: "evil.example", "x-forwarded-host": "evil.example", cookie, "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" },
        body: new URLSearchParams({ email: "live-customer@example.com", csrfToken, callbackUrl: `${AUTH_URL}/account` }),
      }),
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as { url: string }).url).toMatch(new RegExp(`^${AUTH_URL}/`));

    await vi.waitFor(() => expect(smtp.received).toHaveLength(1));
    const [mail] = smtp.received;
    expect(mail?.to).toEqual(["live-customer@example.com"]);
    const unfolded = mail!.data.replace(/=\r\n/g, "").replace(/=3D/g, "=");
    expect(unfolded).toContain(`${AUTH_URL}/api/auth/callback/nodemailer?`);
    expect(unfolded).not.toContain("evil.example");
  });
});
