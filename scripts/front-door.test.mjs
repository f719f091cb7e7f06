import { describe, expect, it } from "vitest";
import { clientAddressOf, isServedTarget, mapCatalogueAddress, normaliseRequestHeaders } from "./front-door.mjs";

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
