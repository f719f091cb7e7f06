import { describe, expect, it } from "vitest";
import { countryFromRequest } from "./service";

const from = (headers: Record<string, string>) => countryFromRequest(new Headers(headers));

describe("the visitor's country from the request", () => {
  it("takes a CDN's country header first", () => {
    expect(from({ "cf-ipcountry": "nl", "accept-language": "en-US" })).toBe("NL");
    expect(from({ "x-vercel-ip-country": "BE" })).toBe("BE");
  });

  it("skips the codes that mean unknown or Tor", () => {
    expect(from({ "cf-ipcountry": "XX", "accept-language": "de-DE" })).toBe("DE");
    expect(from({ "cf-ipcountry": "T1" })).toBeNull();
  });

  it("falls back to the region of the most preferred language that has one", () => {
    expect(from({ "accept-language": "en-GB,en;q=0.9" })).toBe("GB");
    expect(from({ "accept-language": "fr;q=0.9, nl-NL;q=0.8, en-US;q=0.85" })).toBe("US");
    expect(from({ "accept-language": "zh-Hant-TW" })).toBe("TW");
  });

  it("is null when nothing names a country", () => {
    expect(from({})).toBeNull();
    expect(from({ "accept-language": "de, es-419, *" })).toBeNull();
    expect(from({ "accept-language": "nl-NL;q=0" })).toBeNull();
  });
});
