import { describe, expect, it } from "vitest";
import { restockMachine } from "./restock-machine";

describe("restock state machine", () => {
  it("lets staff approve or reject a request, reconsider a rejection and withdraw an approval", () => {
    expect(restockMachine.next("PENDING")).toEqual(["APPROVED", "REJECTED"]);
    expect(restockMachine.next("APPROVED")).toEqual(["REJECTED", "RECEIVED"]);
    expect(restockMachine.next("REJECTED")).toEqual(["PENDING", "APPROVED"]);
    expect(restockMachine.can("APPROVED", "PENDING")).toBe(false);
  });

  it("closes a request once its pieces are received", () => {
    expect(restockMachine.next("RECEIVED")).toEqual([]);
    expect(restockMachine.can("PENDING", "RECEIVED")).toBe(false);
  });

  it("refuses in the order machine's words", () => {
    expect(() => restockMachine.assert(5, "APPROVED", "PENDING")).toThrow(
      expect.objectContaining({ code: "CONFLICT", message: "Restock request 5 is APPROVED and cannot become PENDING: it can only become REJECTED or RECEIVED." }),
    );
    expect(() => restockMachine.assert(5, "APPROVED", "APPROVED")).toThrow(
      expect.objectContaining({ code: "CONFLICT", message: "Restock request 5 is already APPROVED." }),
    );
  });
});
