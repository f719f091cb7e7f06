"use client";

import { cloneElement, Suspense, useState, type ReactElement, type ReactNode } from "react";

type TriggerProps = {
  onClick?: () => void;
  onFocus?: () => void;
  onPointerEnter?: () => void;
  onPointerDown?: () => void;
};

/**
 * A menu, sheet or dialog whose code is fetched when the visitor reaches for it rather than with every page: until
 * then the page holds (and hydrates) only the trigger button, without Radix or the popup's contents. Pointing at or
 * focusing the trigger starts the download; the first click puts `children(trigger)` (a React.lazy component that
 * wraps the same trigger and starts open) in its place.
 */
export function LoadOnUse({
  trigger,
  preload,
  children,
  startUsed = false,
}: {
  trigger: ReactElement<TriggerProps>;
  preload: () => Promise<unknown>;
  children: (trigger: ReactElement) => ReactNode;
  /** Show `children` from the start, as when the popup was open on the page before this one. */
  startUsed?: boolean;
}) {
  const [used, setUsed] = useState(startUsed);
  if (used) return <Suspense fallback={trigger}>{children(trigger)}</Suspense>;
  // A failed early download is no loss: the click asks again.
  const warm = () => void preload().catch(() => undefined);
  return cloneElement(trigger, { onPointerEnter: warm, onPointerDown: warm, onFocus: warm, onClick: () => setUsed(true) });
}
