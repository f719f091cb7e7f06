import type { RefundStatus } from "@/lib/enums";
import { defineStateMachine } from "@/server/state-machine";

/**
 * The refund state machine. A refund is PENDING from the moment staff give it until the provider has paid it out
 * (REFUNDED) or refused it (FAILED); one recorded without a provider (bank transfer, on account) is REFUNDED at once.
 * A FAILED refund gave nothing back and may be tried again, which makes it PENDING under a new attempt key. REFUNDED
 * is final: money that went back is corrected with another refund, never by undoing one.
 */
export const refundMachine = defineStateMachine<RefundStatus>("Refund", {
  PENDING: ["REFUNDED", "FAILED"],
  FAILED: ["PENDING"],
  REFUNDED: [],
});
