import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { databaseReachable, databaseUnreachable } from "../src/server/cache/next-cache-handler.mjs";
import { EDGE_REFRESH_MARGIN_MS, clientAddressOf, isServedTarget, mapCatalogueAddress, normaliseRequestHeaders, guardResponseHead, settleCaching } from "./front-door.mjs";

describe("the front door's client address", () => {
  it("is the socket's peer when clients connect directly, whatever X-Forwarded-For says", () => {
    expect(clientAddressOf("198.51.100.7", "10.0.0.1", 0)).toBe("198.51.100.7");
    expect(clientAddressOf("198.51.100.7", undefined, 0)).toBe("198.51.100.7");
  });

  it("behind trusted proxies, is the entry the outermost trusted proxy wrote, never one the client wrote", () => {
    // nginx on this machine appends the client's address: "<client's own claims>, <client>".
    expect(clientAddressOf("127.0.0.1", "203.0.113.5", 1)).toBe("203.0.113.5");
    expect(clientAddressOf("127.0.0.1", "1.2.3.4, 203.0.113.5", 1)).toBe("203.0.113.5");
    expect(clientAddressOf("127.0.0.1", "1.2.3.4, 5.6.7.8, 203.0.113.5, 10.0.0.2", 2)).toBe("203.0.113.5");
    // A proxy that sent no header: the socket is all there is.
    expect(clientAddressOf("127.0.0.1", undefined, 1)).toBe("127.0.0.1");
  });

  it("replaces a client-sent address header and drops made-up forwarding headers on a direct connection", () => {
    const request = {
      socket: { remoteAddress: "198.51.100.7" },
      headers: { "x-shop-client": "127.0.0.1", "x-forwarded-for": "127.0.0.1", "x-forwarded-host": "evil.example", host: "shop.test" },
    };
    normaliseRequestHeaders(request, 0);
    expect(request.headers).toEqual({ "x-shop-client": "198.51.100.7", host: "shop.test" });
  });
});

describe("the front door's catalogue addresses", () => {
  const mapped = (url) => {
    const request = { url };
    mapCatalogueAddress(request);
    return request.url;
  };

  it("serves / and /search?… from the paths their pages are cached under, keeping Next's _rsc", () => {
    expect(mapped("/")).toBe("/home/shelves");
    expect(mapped("/?utm_source=letter")).toBe("/home/shelves");
    expect(mapped("/search")).toBe("/search/all");
    expect(mapped("/search?search=omega")).toBe(`/search/${Buffer.from("search=omega").toString("base64url")}`);
    expect(mapped("/search?search=omega&_rsc=abc12")).toBe(`/search/${Buffer.from("search=omega").toString("base64url")}?_rsc=abc12`);
  });

  it("leaves every other address as it is", () => {
    for (const url of ["/product/12", "/search/all", "/searching?search=x", "/checkout", "/api/trpc/shared.product.getMany?batch=1"]) expect(mapped(url)).toBe(url);
  });
});

describe("the front door's request targets", () => {
  it("serves paths, and * for OPTIONS only; never an absolute or authority target, which would send the visitor off-site", () => {
    expect(isServedTarget({ method: "GET", url: "/product/12" })).toBe(true);
    expect(isServedTarget({ method: "OPTIONS", url: "*" })).toBe(true);
    for (const [method, url] of [
      ["GET", "http://evil.example/"],
      ["GET", "https://evil.example/admin"],
      ["CONNECT", "evil.example:443"],
      ["GET", "*"],
      ["GET", ""],
    ]) {
      expect(isServedTarget({ method, url }), `${method} ${url}`).toBe(false);
    }
  });
});

describe("the front door's response head", () => {
  it("sends one Location for a redirect, and answers a page that failed with 503 and Retry-After while the catalogue cannot reach the database, and with 500 otherwise (RELIABILITY-REVIEW D6)", async () => {
    // As Next answers a page whose render failed: the status set, then the error page written.
    const server = createServer((request, response) => {
      guardResponseHead(response);
      if (request.url === "/moved") {
        // As Next sends a redirect it rendered just now: its Location set, then appended again from the render.
        response.setHeader("location", "/product/5");
        response.appendHeader("location", "/product/5");
        response.statusCode = 308;
        response.end();
        return;
      }
      if (request.url === "/explicit") {
        response.writeHead(500, "Internal Server Error", { "content-type": "text/html" }).end("failed");
        return;
      }
      response.statusCode = request.url === "/fine" ? 200 : 500;
      response.setHeader("content-type", "text/html");
      response.end("page");
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${server.address().port}`;
    try {
      const moved = await fetch(`${base}/moved`, { redirect: "manual" });
      expect([moved.status, moved.headers.get("location")]).toEqual([308, "/product/5"]);
      databaseUnreachable();
      for (const path of ["/failed", "/explicit"]) {
        const answer = await fetch(base + path);
        expect([answer.status, answer.headers.get("retry-after")], path).toEqual([503, "30"]);
      }
      expect((await fetch(`${base}/fine`)).status).toBe(200);
      databaseReachable();
      const answer = await fetch(`${base}/failed`);
      expect([answer.status, answer.headers.get("retry-after")]).toEqual([500, null]);
    } finally {
      databaseReachable();
      server.close();
    }
  });
});

describe("who may keep a response (settleCaching)", () => {
  /** A response's headers as Node keeps them, and what settleCaching makes of them. */
  const settled = (headers, now = Date.UTC(2026, 10, 29, 12, 0, 0, 600), given = []) => {
    const kept = new Map(Object.entries(headers));
    const response = {
      getHeader: (name) => kept.get(name),
      hasHeader: (name) => kept.has(name),
      setHeader: (name, value) => kept.set(name, value),
      removeHeader: (name) => kept.delete(name),
    };
    settleCaching(response, now, given);
    return Object.fromEntries(kept);
  };
  const second = Date.UTC(2026, 10, 29, 12, 0, 0) / 1000;

  it("makes a page Next serves to everyone alike public, and fresh at the edge to the end of the second a margin ago", () => {
    expect(settled({ "cache-control": "s-maxage=1, stale-while-revalidate=86400" })).toEqual({
      "cache-control": "public, s-maxage=1, stale-while-revalidate=86400",
      "x-accel-expires": `@${second}`,
    });
    // Within the margin of the second's start, the copy is kept only to be served while another request refreshes it.
    expect(settled({ "cache-control": "s-maxage=1, stale-while-revalidate=86400" }, second * 1000 + EDGE_REFRESH_MARGIN_MS - 1)["x-accel-expires"]).toBe(`@${second - 1}`);
  });

  it("makes anything that sets a cookie private, and lets no edge keep it", () => {
    expect(settled({ "cache-control": "s-maxage=1, stale-while-revalidate=86400", "set-cookie": ["authjs.session-token=abc"] })).toEqual({
      "cache-control": "private, no-store",
      "set-cookie": ["authjs.session-token=abc"],
    });
    expect(settled({ "cache-control": "s-maxage=1" }, undefined, ["set-cookie"])["cache-control"]).toBe("private, no-store");
  });

  it("leaves personal answers, answers without a shared lifetime and headers given to writeHead as they are, none marked for the edge", () => {
    for (const headers of [
      { "cache-control": "private, no-cache, no-store, max-age=0, must-revalidate" },
      { "cache-control": "private, s-maxage=1" },
      { "cache-control": "public, max-age=300" },
      {},
      // A made-up marker from a page is not the front door's.
      { "x-accel-expires": "@4102444800" },
    ]) {
      const { "x-accel-expires": _marker, ...rest } = headers;
      expect(settled(headers), JSON.stringify(headers)).toEqual(rest);
    }
    expect(settled({ "cache-control": "s-maxage=1" }, undefined, ["cache-control"])).toEqual({ "cache-control": "s-maxage=1" });
  });

  it("is settled as the head is written, from the headers set before and those handed to writeHead", async () => {
    const server = createServer((request, response) => {
      guardResponseHead(response);
      response.setHeader("cache-control", "s-maxage=1, stale-while-revalidate=86400");
      if (request.url === "/cookie-in-writehead") response.writeHead(200, { "set-cookie": "a=1" }).end("page");
      else response.end("page");
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${server.address().port}`;
    try {
      const shared = await fetch(`${base}/page`);
      expect(shared.headers.get("cache-control")).toBe("public, s-maxage=1, stale-while-revalidate=86400");
      expect(shared.headers.get("x-accel-expires")).toMatch(/^@\d+$/);
      const personal = await fetch(`${base}/cookie-in-writehead`);
      expect([personal.headers.get("cache-control"), personal.headers.get("x-accel-expires")]).toEqual(["private, no-store", null]);
    } finally {
      server.close();
    }
  });
});
