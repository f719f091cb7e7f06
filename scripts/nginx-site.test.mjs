import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { nginxConfig, readmeSample, shopSite } from "./nginx-site.mjs";

const NGINX = "/usr/sbin/nginx";
const root = path.resolve(import.meta.dirname, "..");

/** The README's nginx blocks, as written. */
function readmeNginxBlocks() {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  return [...readme.matchAll(/```nginx\n([\s\S]*?)```/g)].map((match) => match[1]);
}

describe("nginx in front of the shop", () => {
  it("is one configuration: the README's sample is what scripts/nginx-site.mjs writes, and start:two-instances uses the same site", () => {
    expect(readmeNginxBlocks()).toEqual([readmeSample()]);
    const local = nginxConfig({ prefix: "/tmp/shop", listen: "127.0.0.1:8080", upstreams: ["127.0.0.1:3101", "127.0.0.1:3102"] });
    const site = shopSite({ cacheDir: '"/tmp/shop/cache"', upstreams: ["127.0.0.1:3101", "127.0.0.1:3102"], listen: "127.0.0.1:8080", host: "$http_host" });
    expect(local).toContain(site.replace(/^(?=.)/gm, "  "));
  });

  it("keeps nothing personal: requests with Auth.js's session cookie or a visitor token pass by the cache, and private answers, answers that set a cookie and answers the shop did not mark are not kept", () => {
    const site = readmeSample();
    expect(site).toMatch(/proxy_cache_bypass \$shop_session \$http_x_token;/);
    expect(site).toMatch(/proxy_no_cache \$shop_session \$http_x_token \$shop_personal_answer \$upstream_http_set_cookie \$shop_not_for_the_edge;/);
    const sessionPattern = /"~(.*)" 1;/.exec(site.slice(site.indexOf("map $http_cookie")))?.[1];
    const signedIn = new RegExp(sessionPattern.replace(/\\\\/g, "\\"));
    for (const cookie of ["authjs.session-token=abc", "theme=dark; __Secure-authjs.session-token=abc", "a=1;authjs.session-token=x"]) expect(signedIn.test(cookie), cookie).toBe(true);
    for (const cookie of ["theme=dark", "authjs.csrf-token=abc", "not-authjs.session-token=abc"]) expect(signedIn.test(cookie), cookie).toBe(false);
    expect(site).toContain("proxy_cache_lock on;");
    expect(site).toContain("proxy_cache_use_stale updating");
    expect(site).toContain("proxy_cache_background_update off;");
  });

  it.skipIf(!existsSync(NGINX))("is a configuration nginx accepts", () => {
    const prefix = mkdtempSync(path.join(os.tmpdir(), "shop-nginx-test-"));
    try {
      mkdirSync(path.join(prefix, "temp"));
      writeFileSync(path.join(prefix, "nginx.conf"), nginxConfig({ prefix, listen: "127.0.0.1:1", upstreams: ["127.0.0.1:2"] }));
      const checked = spawnSync(NGINX, ["-t", "-q", "-p", prefix, "-c", path.join(prefix, "nginx.conf"), "-e", path.join(prefix, "error.log")], { encoding: "utf8" });
      expect(checked.stderr).toBe("");
      expect(checked.status).toBe(0);
    } finally {
      rmSync(prefix, { recursive: true, force: true });
    }
  });
});
