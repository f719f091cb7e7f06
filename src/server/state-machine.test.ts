import { describe, expect, it } from "vitest";
import { defineStateMachine } from "./state-machine";

const lamp = defineStateMachine("Lamp", { OFF: ["ON"], ON: ["OFF", "BROKEN"], BROKEN: [] });

describe("defineStateMachine", () => {
  it("allows exactly the listed transitions", () => {
    expect(lamp.can("OFF", "ON")).toBe(true);
    expect(lamp.can("ON", "BROKEN")).toBe(true);
    expect(lamp.can("OFF", "BROKEN")).toBe(false);
    expect(lamp.next("ON")).toEqual(["OFF", "BROKEN"]);
  });

  it("refuses with CONFLICT, naming the thing and what its state permits", () => {
    expect(() => lamp.assert(3, "OFF", "BROKEN")).toThrow(
      expect.objectContaining({ code: "CONFLICT", message: "Lamp 3 is OFF and cannot become BROKEN: it can only become ON." }),
    );
    expect(() => lamp.assert(3, "BROKEN", "ON")).toThrow(
      expect.objectContaining({ code: "CONFLICT", message: "Lamp 3 is BROKEN and cannot become ON: nothing more can happen to it." }),
    );
    expect(() => lamp.assert(3, "ON", "ON")).toThrow(expect.objectContaining({ code: "CONFLICT", message: "Lamp 3 is already ON." }));
    expect(() => lamp.assert(3, "ON", "OFF")).not.toThrow();
  });
});
