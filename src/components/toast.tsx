"use client";

import { lazy, Suspense, useEffect, useSyncExternalStore } from "react";
import type { ExternalToast } from "sonner";
import { useIdle } from "@/lib/use-idle";

/*
 * Toasts without the toast library in every page's first download: the toaster (sonner, its styles and the
 * theme hook) loads once the page is idle, or at the first toast if that comes sooner, and a toast asked for
 * before then shows as soon as the toaster is listening.
 */

const loadToaster = () => import("./ui/sonner");
const Toaster = lazy(async () => ({ default: (await loadToaster()).Toaster }));

let requested = false;
const listeners = new Set<() => void>();
let markListening: () => void = () => undefined;
const listening = new Promise<void>((resolve) => {
  markListening = resolve;
});

function requestToaster() {
  if (requested) return;
  requested = true;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function show(kind: "success" | "error" | "warning", message: string, options?: ExternalToast) {
  requestToaster();
  // In call order: each toast waits on the same two promises.
  void Promise.all([loadToaster(), listening]).then(([{ toast: sonner }]) => sonner[kind](message, options));
}

export const toast = {
  success: (message: string, options?: ExternalToast) => show("success", message, options),
  error: (message: string, options?: ExternalToast) => show("error", message, options),
  warning: (message: string, options?: ExternalToast) => show("warning", message, options),
};

/** Rendered after the toaster in the same tree, so its effect runs once the toaster has subscribed to new toasts. */
function ToasterListening() {
  useEffect(() => markListening(), []);
  return null;
}

/** The page's toaster, in the root layout. */
export function ToastHost() {
  const idle = useIdle();
  const wanted = useSyncExternalStore(subscribe, () => requested, () => false);
  if (!idle && !wanted) return null;
  return (
    <Suspense>
      <Toaster />
      <ToasterListening />
    </Suspense>
  );
}
