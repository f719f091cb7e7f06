import type { BoxStatus } from "@/lib/enums";
import { AppError } from "@/server/errors";
import { defineStateMachine } from "@/server/state-machine";

/**
 * The box state machine (SPEC section 4): a box is filled while OPEN, travels while SHIPPED and is unpacked once,
 * EXPLODED, which books its purchases into stock. Nothing goes back: a shipped box has left the building, and an
 * exploded box's stock is in the ledger.
 */
export const boxMachine = defineStateMachine<BoxStatus>("Box", {
  OPEN: ["SHIPPED"],
  SHIPPED: ["EXPLODED"],
  EXPLODED: [],
});

/** Purchases can be added, changed or removed only while the box is still being filled. */
export function assertBoxEditable(boxId: number, status: BoxStatus): void {
  if (status !== "OPEN") {
    throw new AppError("PRECONDITION_FAILED", `Box ${boxId} is ${status}: purchases can only change while the box is OPEN.`);
  }
}
