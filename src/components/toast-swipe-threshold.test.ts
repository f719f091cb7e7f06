import { describe, expect, it } from "vitest";
import { swipeForSonner, TOAST_SWIPE_THRESHOLD_PX } from "./toast-swipe-threshold";

describe("the toast swipe threshold", () => {
  it("is the SPEC's 50 px", () => {
    expect(TOAST_SWIPE_THRESHOLD_PX).toBe(50);
  });

  it("keeps a toast swiped 45 to 49.9 px, which sonner alone would dismiss, by showing sonner less than its 45", () => {
    for (const px of [45, 47, 49.9, -45, -49.9]) expect(Math.abs(swipeForSonner(px))).toBeLessThan(45);
    expect(Math.sign(swipeForSonner(-47))).toBe(-1);
  });

  it("leaves shorter and longer swipes as they are", () => {
    for (const px of [0, 10, 44.9, 50, 120, -50, -80]) expect(swipeForSonner(px)).toBe(px);
  });
});
