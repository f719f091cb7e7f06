"use client";

import { useEffect, useRef } from "react";

/** True while the user types in a field, where single-key shortcuts must not fire. */
function typing(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  if (!element) return false;
  return element.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(element.tagName);
}

/**
 * A single-key shortcut for frequent actions (BRAND.md: the back office has keyboard shortcuts). Ignored while
 * typing in a field or with a modifier held, so it never eats a character.
 */
export function useShortcut(key: string, action: () => void, enabled = true) {
  const latest = useRef(action);
  useEffect(() => {
    latest.current = action;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== key || event.metaKey || event.ctrlKey || event.altKey || typing(event.target)) return;
      event.preventDefault();
      latest.current();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [key, enabled]);
}
