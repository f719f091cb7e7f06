import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, openBrowser, screenshot, type BrowserSession } from "./browser";

describe("smoke: the production build serves the shop", () => {
  let b: BrowserSession | undefined;

  beforeAll(async () => {
    b = await openBrowser();
  });

  afterAll(async () => {
    await b?.close();
  });

  it("answers the health check", async () => {
    const response = await fetch(`${baseUrl()}/api/health`);
    expect(response.status).toBe(200);
    // The server migrated its fresh embedded database on start.
    expect(await response.json()).toMatchObject({
      status: "ok",
      database: { reachable: true, kind: "pglite" },
      schema: { upToDate: true },
    });
  });

  it("renders the home page with the shop's name in the title", async () => {
    const page = await b!.newPage();
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    expect(await page.title()).toContain("Balance & Crown");
    await screenshot(page, "smoke-home");
  });
});
