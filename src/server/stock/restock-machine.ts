import type { RestockStatus } from "@/lib/enums";
import { defineStateMachine } from "@/server/state-machine";

/**
 * The restock manager: a sold-out product is put forward (PENDING), then staff decide to buy it again (APPROVED)
 * or not (REJECTED). A rejection can be reconsidered; an approval can be withdrawn. An approved request is RECEIVED
 * when its pieces come into stock, and that closes it: a later sell-out puts the product forward again.
 */
export const restockMachine = defineStateMachine<RestockStatus>("Restock request", {
  PENDING: ["APPROVED", "REJECTED"],
  APPROVED: ["REJECTED", "RECEIVED"],
  REJECTED: ["PENDING", "APPROVED"],
  RECEIVED: [],
});
