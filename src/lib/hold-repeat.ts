/** SPEC section 9: a held spinner button steps again after 500 ms, then every 35 ms. */
export const HOLD_REPEAT_DELAY_MS = 500;
export const HOLD_REPEAT_EVERY_MS = 35;

/**
 * Steps now, again after `HOLD_REPEAT_DELAY_MS`, then every `HOLD_REPEAT_EVERY_MS` until the returned stop is called.
 * `step` says whether another step is possible; when it says no, the repeating ends and `atLimit` is called.
 */
export function repeatWhileHeld(step: () => boolean, atLimit: () => void): () => void {
  let stopped = false;
  let first: ReturnType<typeof setTimeout> | undefined;
  let every: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(every);
  };
  const stepOrEnd = () => {
    if (stopped || step()) return;
    stop();
    atLimit();
  };
  stepOrEnd();
  if (!stopped) {
    first = setTimeout(() => {
      stepOrEnd();
      if (!stopped) every = setInterval(stepOrEnd, HOLD_REPEAT_EVERY_MS);
    }, HOLD_REPEAT_DELAY_MS);
  }
  return stop;
}
