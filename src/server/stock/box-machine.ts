import type { BoxStatus } from "@/lib/enums";
import { AppError } from "@/server/errors";

/**
 * The box state machine (SPEC section 4): a box is filled while OPEN, travels while SHIPPED and is unpacked once,
 * EXPLODED, which books its purchases into stock. Nothing goes back: a shipped box has left the building, and an
 * exploded box's stock is in the ledger.
 */
export const boxTransitions: Readonly<Record<BoxStatus, readonly BoxStatus[]>> = {
  OPEN: ["SHIPPED"],
  SHIPPED: ["EXPLODED"],
  EXPLODED: [],
};

export function canTransitionBox(from: BoxStatus, to: BoxStatus): boolean {
  return boxTransitions[from].includes(to);
}

/** Refuses a transition the machine does not allow, saying what the box's state permits instead. */
export function assertBoxTransition(boxId: number, from: BoxStatus, to: BoxStatus): void {
  if (canTransitionBox(from, to)) return;
  if (from === to) throw new AppError("CONFLICT", `Box ${boxId} is already ${from}.`);
  const next = boxTransitions[from];
  const hint = next.length ? `it can only become ${next.join(" or ")}` : "nothing more can happen to it";
  throw new AppError("CONFLICT", `Box ${boxId} is ${from} and cannot become ${to}: ${hint}.`);
}

/** Purchases can be added, changed or removed only while the box is still being filled. */
export function assertBoxEditable(boxId: number, status: BoxStatus): void {
  if (status !== "OPEN") {
    throw new AppError("PRECONDITION_FAILED", `Box ${boxId} is ${status}: purchases can only change while the box is OPEN.`);
  }
}
