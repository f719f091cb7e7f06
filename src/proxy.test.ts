import { describe, expect, it } from "vitest";
import { personalPagePrefixes } from "@/server/http/security-headers";
import { config } from "./proxy";

describe("where the proxy runs", () => {
  it("covers every personal page, which needs its nonce, and the cached catalogue addresses it serves elsewhere", () => {
    for (const prefix of personalPagePrefixes) expect(config.matcher).toContain(`${prefix}/:path*`);
    expect(config.matcher).toEqual(expect.arrayContaining(["/", "/search"]));
  });
});
