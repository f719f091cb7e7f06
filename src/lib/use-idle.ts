"use client";

import { useEffect, useState } from "react";

/** Waits for the browser's first idle moment, at most this long, before starting work the page does not show. */
const IDLE_TIMEOUT_MS = 2_000;

/** True once the page has loaded and the browser has had a quiet moment. */
export function useIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    // Safari has no requestIdleCallback.
    if (!("requestIdleCallback" in window)) {
      const timer = setTimeout(() => setIdle(true), IDLE_TIMEOUT_MS / 2);
      return () => clearTimeout(timer);
    }
    const handle = window.requestIdleCallback(() => setIdle(true), { timeout: IDLE_TIMEOUT_MS });
    return () => window.cancelIdleCallback(handle);
  }, []);
  return idle;
}
