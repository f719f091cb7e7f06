import { describe, expect, it } from "vitest";
import { FIRST_LOOK_MS, nextProgressRead, PROGRESS_POLL_MS } from "./progress-poll";

const run = (currentCount: number, msToCompletion: number | null) => ({ currentPercent: "0", estimatedTimeToCompletion: null, msToCompletion, currentCount, totalCount: 103 });

describe("when the top bar reads the bulk progress again", () => {
  it("looks again within two seconds at a run that has just started at 0 of 103, not after 30 s", () => {
    expect(nextProgressRead(run(0, null))).toBe(FIRST_LOOK_MS);
    expect(FIRST_LOOK_MS).toBeLessThanOrEqual(2_000);
  });

  it("looks at once when the run should be done, and every 30 s while it runs longer", () => {
    expect(nextProgressRead(run(50, 4_000))).toBe(4_500);
    expect(nextProgressRead(run(50, 0))).toBe(FIRST_LOOK_MS);
    expect(nextProgressRead(run(10, 7 * 60_000))).toBe(PROGRESS_POLL_MS);
  });

  it("polls every 30 s while no run goes", () => {
    expect(nextProgressRead(undefined)).toBe(PROGRESS_POLL_MS);
    expect(PROGRESS_POLL_MS).toBe(30_000);
  });
});
