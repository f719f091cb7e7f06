import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInRedirect } from "@/lib/auth-paths";
import { baseUrl, openBrowser, type BrowserSession } from "./browser";

// Anonymous visitors never see the back office: pages send them to sign in (coming back to the same address), the
// API answers 401. Signed-in customers are covered in admin-journey.e2e.ts, which needs the e-mail sign-in.

describe("admin access for anonymous visitors", () => {
  let b: BrowserSession | undefined;

  beforeAll(async () => {
    b = await openBrowser();
  });

  afterAll(async () => {
    await b?.close();
  });

  it.each(["/admin/dashboard", "/admin/products?sort=price.asc&search=seiko", "/admin/boxes/open", "/admin/logbook/level/error"])(
    "%s redirects to sign in with callbackUrl and error=SessionRequired",
    async (path) => {
      const page = await b!.newPage();
      await page.goto(path);
      await page.waitForURL((url) => !url.pathname.startsWith("/admin"));
      const expected = new URL(signInRedirect(path), baseUrl());
      const reached = new URL(page.url());
      expect(reached.pathname).toBe(expected.pathname);
      expect(reached.searchParams.get("callbackUrl")).toBe(path);
      expect(reached.searchParams.get("error")).toBe("SessionRequired");
      expect(await page.locator("text=Admin panel").count()).toBe(0);
      await page.close();
    },
  );

  it("redirects on the server, before any of the admin area is sent", async () => {
    const response = await fetch(`${baseUrl()}/admin/products?sort=price.asc`, { redirect: "manual" });
    expect(response.status).toBe(307);
    const location = new URL(response.headers.get("location")!, baseUrl());
    expect(location.searchParams.get("callbackUrl")).toBe("/admin/products?sort=price.asc");
    expect(location.searchParams.get("error")).toBe("SessionRequired");
  });

  it("sends a stale session cookie to sign in as well", async () => {
    const response = await fetch(`${baseUrl()}/admin/dashboard`, {
      redirect: "manual",
      headers: { cookie: "authjs.session-token=no-such-session" },
    });
    expect([303, 307]).toContain(response.status);
    expect(new URL(response.headers.get("location")!, baseUrl()).searchParams.get("error")).toBe("SessionRequired");
  });

  it("answers admin API calls with 401", async () => {
    const response = await fetch(`${baseUrl()}/api/trpc/admin.sidebar.getSidebarInformation`);
    expect(response.status).toBe(401);
  });
});
