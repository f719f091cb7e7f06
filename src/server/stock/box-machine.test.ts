import { describe, expect, it } from "vitest";
import { boxStatuses } from "@/lib/enums";
import { assertBoxEditable, boxMachine } from "./box-machine";

describe("box state machine", () => {
  const pairs = boxStatuses.flatMap((from) => boxStatuses.map((to) => ({ from, to, allowed: boxMachine.can(from, to) })));

  it("allows exactly OPEN -> SHIPPED -> EXPLODED", () => {
    expect(pairs.filter((pair) => pair.allowed).map((pair) => `${pair.from}->${pair.to}`)).toEqual(["OPEN->SHIPPED", "SHIPPED->EXPLODED"]);
  });

  it.each(pairs)("$from -> $to: allowed $allowed", ({ from, to, allowed }) => {
    if (allowed) expect(() => boxMachine.assert(7, from, to)).not.toThrow();
    else expect(() => boxMachine.assert(7, from, to)).toThrowError(expect.objectContaining({ code: "CONFLICT" }));
  });

  it("refuses in the order machine's words", () => {
    expect(() => boxMachine.assert(7, "EXPLODED", "OPEN")).toThrow(
      expect.objectContaining({ message: "Box 7 is EXPLODED and cannot become OPEN: nothing more can happen to it." }),
    );
    expect(() => boxMachine.assert(7, "OPEN", "EXPLODED")).toThrow(
      expect.objectContaining({ message: "Box 7 is OPEN and cannot become EXPLODED: it can only become SHIPPED." }),
    );
  });

  it("lets purchases change only while the box is OPEN", () => {
    expect(() => assertBoxEditable(7, "OPEN")).not.toThrow();
    expect(() => assertBoxEditable(7, "SHIPPED")).toThrow(expect.objectContaining({ code: "PRECONDITION_FAILED" }));
  });
});
