import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/server/errors";
import { isRefundOutcomeUnknown, PaymentProviderError, refundPaymentInput } from "./port";

describe("isRefundOutcomeUnknown", () => {
  const providerSaid = (status: number | null) => new PaymentProviderError("Mollie", status, `Mollie answered ${status ?? "nothing"}`);

  it("is true when the request got no clear answer, so the same request must be repeated with the same key", () => {
    for (const status of [null, 500, 502, 503, 504, 408, 409, 429]) expect(isRefundOutcomeUnknown(providerSaid(status)), String(status)).toBe(true);
    // A database or network error from somewhere we did not foresee: the request may have gone out.
    expect(isRefundOutcomeUnknown(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isRefundOutcomeUnknown("something odd")).toBe(true);
  });

  it("is false when the provider plainly refused, so the refund failed and nothing was paid", () => {
    for (const status of [400, 401, 403, 404, 422]) expect(isRefundOutcomeUnknown(providerSaid(status)), String(status)).toBe(false);
  });

  it("is false when the refund was refused before anything was sent", () => {
    expect(isRefundOutcomeUnknown(new AppError("CONFLICT", "PayPal order 5O1 has no captured payment to refund"))).toBe(false);
    const badInput = refundPaymentInput.safeParse({ externalPaymentId: "tr_1", amount: "-5", idempotencyKey: "k" });
    expect(badInput.success).toBe(false);
    expect(isRefundOutcomeUnknown(badInput.error)).toBe(false);
    expect(badInput.error).toBeInstanceOf(z.ZodError);
  });
});
