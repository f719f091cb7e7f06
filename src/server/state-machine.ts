import { AppError } from "@/server/errors";

/**
 * A state machine (ARCHITECTURE section 3): which statuses may follow which. Order, box and restock are each
 * defined with this, so they answer alike and refuse alike: CONFLICT, naming what the thing's state permits instead.
 */
export type StateMachine<S extends string> = {
  /** The statuses that may follow each status. */
  readonly transitions: Readonly<Record<S, readonly S[]>>;
  can(from: S, to: S): boolean;
  next(from: S): readonly S[];
  /** Refuses (CONFLICT) a transition the machine does not allow; `id` names the thing, as in "Order BC-2026-000001". */
  assert(id: string | number, from: S, to: S): void;
};

/** `name` is how a message names one thing of the kind: "Order", "Box", "Restock request". */
export function defineStateMachine<S extends string>(name: string, transitions: Readonly<Record<S, readonly S[]>>): StateMachine<S> {
  const next = (from: S) => transitions[from];
  const can = (from: S, to: S) => next(from).includes(to);
  return {
    transitions,
    can,
    next,
    assert(id, from, to) {
      if (can(from, to)) return;
      if (from === to) throw new AppError("CONFLICT", `${name} ${id} is already ${from}.`);
      const allowed = next(from);
      const hint = allowed.length ? `it can only become ${allowed.join(" or ")}` : "nothing more can happen to it";
      throw new AppError("CONFLICT", `${name} ${id} is ${from} and cannot become ${to}: ${hint}.`);
    },
  };
}
