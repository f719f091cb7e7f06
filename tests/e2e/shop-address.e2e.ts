import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../helpers/free-port";
import { ownRedisUnavailable, startOwnRedis, type OwnRedis } from "../helpers/own-redis";

/**
 * One build serves any address (issue 27): the same build on the same data folder, started on one port and then on
 * another, hands out the second port's address in its sign-in e-mails, sitemap, structured data and share picture,
 * and with AUTH_URL set, that address. Where the machine has redis-server the page cache is shared through one, so a
 * catalogue page cached under the first address is not served under the second.
 */

type Shop = { url: string; output: () => string; stop: () => Promise<void> };

const dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-address-"));
let redis: OwnRedis | null = null;

async function startShop(port: number, extra: Record<string, string> = {}): Promise<Shop> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", DATA_DIR: dataDir, ENVIRONMENT: "development", NEXT_TELEMETRY_DISABLED: "1", ...extra };
  // The sign-in e-mail's link is read from the sandbox's log line, whatever level the test run logs at.
  env.LOG_LEVEL = "info";
  for (const name of ["AUTH_URL", "NEXT_PUBLIC_SERVER_URL", "DATABASE_URL", "INTEGRATIONS", "REDIS_URL", "PORT"]) if (!(name in extra)) delete env[name];
  if (redis) env.REDIS_URL = redis.url;
  const child: ChildProcess = spawn(process.execPath, [path.join(process.cwd(), "scripts", "serve.mjs"), "-p", String(port), "-H", "127.0.0.1"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const shop = {
    url,
    output: () => output,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
  await expect
    .poll(async () => (await fetch(`${url}/api/health`).catch(() => null))?.status, { timeout: 120_000, interval: 500 })
    .toBe(200)
    .catch(async (error: unknown) => {
      await shop.stop();
      throw new Error(`The shop on port ${port} did not start: ${String(error)}\n${output}`);
    });
  return shop;
}

/** Asks for a sign-in link for `email` the way the sign-in form does, and returns the link the sandbox e-mail carries. */
async function signInLink(shop: Shop, email: string): Promise<string> {
  const csrf = await fetch(`${shop.url}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
  const asked = await fetch(`${shop.url}/api/auth/signin/nodemailer`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams({ email, csrfToken, callbackUrl: "/" }),
  });
  expect(asked.status).toBeLessThan(400);
  let link: string | undefined;
  await expect
    .poll(
      () => {
        for (const line of shop.output().split("\n")) {
          if (!line.includes('"MAIL_SANDBOX"')) continue;
          const entry = JSON.parse(line) as { to?: string; links?: string[] };
          if (entry.to === email) link = entry.links?.find((candidate) => candidate.includes("/api/auth/callback/"));
        }
        return link;
      },
      { timeout: 20_000 },
    )
    .toBeTruthy();
  return link!;
}

/** The addresses a visitor's or a crawler's pages name: the home page's JSON-LD and og:image, and the sitemap's. */
async function publishedAddresses(shop: Shop): Promise<{ jsonLd: string; ogImage: string; sitemap: string }> {
  const home = await (await fetch(`${shop.url}/`)).text();
  const organization = [...home.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)]
    .map((match) => JSON.parse(match[1]!) as { "@type"?: string; url?: string })
    .find((data) => data["@type"] === "OnlineStore");
  const ogImage = /<meta property="og:image" content="([^"]+)"/.exec(home)?.[1] ?? "";
  const sitemap = await (await fetch(`${shop.url}/sitemap.xml`)).text();
  return { jsonLd: organization?.url ?? "", ogImage, sitemap: /<loc>([^<]+)<\/loc>/.exec(sitemap)?.[1] ?? "" };
}

beforeAll(async () => {
  if (!ownRedisUnavailable()) redis = await startOwnRedis();
});
afterAll(async () => {
  await redis?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the shop's address at run time", () => {
  it("follows the port it is started on, and AUTH_URL when it is set", async () => {
    const [firstPort, secondPort] = [await freePort(), await freePort()];

    const first = await startShop(firstPort);
    try {
      expect(await publishedAddresses(first)).toEqual({
        jsonLd: `http://localhost:${firstPort}/`,
        ogImage: `http://localhost:${firstPort}/logo.png`,
        sitemap: `http://localhost:${firstPort}/`,
      });
    } finally {
      await first.stop();
    }

    const second = await startShop(secondPort);
    try {
      expect(await publishedAddresses(second)).toEqual({
        jsonLd: `http://localhost:${secondPort}/`,
        ogImage: `http://localhost:${secondPort}/logo.png`,
        sitemap: `http://localhost:${secondPort}/`,
      });
      expect(new URL(await signInLink(second, "address-port@example.com")).origin).toBe(`http://localhost:${secondPort}`);
    } finally {
      await second.stop();
    }

    const configured = await startShop(secondPort, { AUTH_URL: "https://shop.example.test" });
    try {
      expect(await publishedAddresses(configured)).toEqual({
        jsonLd: "https://shop.example.test/",
        ogImage: "https://shop.example.test/logo.png",
        sitemap: "https://shop.example.test/",
      });
      expect(new URL(await signInLink(configured, "address-configured@example.com")).origin).toBe("https://shop.example.test");
    } finally {
      await configured.stop();
    }
  }, 420_000);
});
