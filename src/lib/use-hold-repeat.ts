"use client";

import { useCallback, useEffect, useRef, type MouseEvent, type PointerEvent } from "react";
import { repeatWhileHeld } from "./hold-repeat";

/**
 * A spinner button's props (SPEC section 9): pressed, it steps at once and repeats while held; letting go, leaving the
 * button or reaching the limit (`step` returns false) ends the hold and calls `release`. A click from the keyboard
 * (no pointer, so `detail` is 0) is one step and one release, as before; a pointer's click is the press already taken.
 */
export function useHoldRepeat(step: () => boolean, release: () => void) {
  const latest = useRef({ step, release });
  useEffect(() => {
    latest.current = { step, release };
  });
  const stopTimer = useRef<(() => void) | null>(null);
  const holding = useRef(false);

  const end = useCallback(() => {
    stopTimer.current?.();
    stopTimer.current = null;
    if (!holding.current) return;
    holding.current = false;
    latest.current.release();
  }, []);
  useEffect(() => end, [end]);

  return {
    onPointerDown(event: PointerEvent<HTMLButtonElement>) {
      if (event.button !== 0) return;
      end();
      holding.current = true;
      stopTimer.current = repeatWhileHeld(() => latest.current.step(), end);
    },
    onPointerUp: end,
    onPointerLeave: end,
    onPointerCancel: end,
    onClick(event: MouseEvent<HTMLButtonElement>) {
      if (event.detail !== 0) return;
      latest.current.step();
      latest.current.release();
    },
  };
}
