import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, matchingTotpStep, otpauthUri, totpCode, totpStep } from "./totp";

// RFC 6238 appendix B: the SHA-1 secret "12345678901234567890" and its 8-digit codes at these times.
const rfcSecret = new TextEncoder().encode("12345678901234567890");
const rfcVectors: [number, string][] = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
];

describe("TOTP", () => {
  it("makes RFC 6238's codes for its test vectors", () => {
    for (const [seconds, code] of rfcVectors) expect(totpCode(rfcSecret, totpStep(new Date(seconds * 1000)), 8), String(seconds)).toBe(code);
  });

  it("takes the current code and one step either side, no further, and nothing that is not six digits", () => {
    const at = new Date(1_234_567_890_000);
    const step = totpStep(at);
    expect(matchingTotpStep(rfcSecret, totpCode(rfcSecret, step), at)).toBe(step);
    expect(matchingTotpStep(rfcSecret, totpCode(rfcSecret, step - 1), at)).toBe(step - 1);
    expect(matchingTotpStep(rfcSecret, totpCode(rfcSecret, step + 1), at)).toBe(step + 1);
    expect(matchingTotpStep(rfcSecret, totpCode(rfcSecret, step - 2), at)).toBeNull();
    const code = totpCode(rfcSecret, step);
    expect(matchingTotpStep(rfcSecret, `${code.slice(0, 3)} ${code.slice(3)}`, at)).toBe(step);
    expect(matchingTotpStep(rfcSecret, "12345", at)).toBeNull();
    expect(matchingTotpStep(rfcSecret, "abcdef", at)).toBeNull();
  });

  it("writes the secret in base32 as authenticator apps read it, and back", () => {
    expect(base32Encode(rfcSecret)).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
    expect(base32Decode("gezd gnbv gy3t qojq gezd gnbv gy3t qojq")).toEqual(rfcSecret);
    expect(otpauthUri({ issuer: "Balance & Crown", account: "staff@example.com", secret: rfcSecret })).toBe(
      "otpauth://totp/Balance%20%26%20Crown:staff%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Balance+%26+Crown&algorithm=SHA1&digits=6&period=30",
    );
  });
});
