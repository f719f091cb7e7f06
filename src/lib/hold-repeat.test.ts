import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { repeatWhileHeld } from "./hold-repeat";

describe("repeatWhileHeld", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function counter(limit = Infinity) {
    const state = { steps: 0, atLimit: 0 };
    const stop = repeatWhileHeld(
      () => ++state.steps < limit,
      () => state.atLimit++,
    );
    return { state, stop };
  }

  it("steps once on pressing and not again before 500 ms", () => {
    const { state } = counter();
    expect(state.steps).toBe(1);
    vi.advanceTimersByTime(499);
    expect(state.steps).toBe(1);
  });

  it("steps again at 500 ms, then every 35 ms", () => {
    const { state } = counter();
    vi.advanceTimersByTime(500);
    expect(state.steps).toBe(2);
    vi.advanceTimersByTime(34);
    expect(state.steps).toBe(2);
    vi.advanceTimersByTime(1);
    expect(state.steps).toBe(3);
    // Held for 1.5 s: the press, the step at 500 ms and one every 35 ms of the 1000 ms after it.
    vi.advanceTimersByTime(1500 - 535);
    expect(state.steps).toBe(2 + Math.floor(1000 / 35));
  });

  it("stops stepping when released", () => {
    const { state, stop } = counter();
    vi.advanceTimersByTime(600);
    const held = state.steps;
    stop();
    vi.advanceTimersByTime(1000);
    expect(state.steps).toBe(held);
    expect(state.atLimit).toBe(0);
  });

  it("stops at the limit and says so once", () => {
    const { state } = counter(5);
    vi.advanceTimersByTime(2000);
    expect(state.steps).toBe(5);
    expect(state.atLimit).toBe(1);
  });

  it("schedules nothing when the first step already reaches the limit", () => {
    const { state } = counter(1);
    expect(state.atLimit).toBe(1);
    vi.advanceTimersByTime(2000);
    expect(state.steps).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
