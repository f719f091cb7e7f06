"use client";

import { Loader2 } from "lucide-react";
import { createPortal } from "react-dom";

/** Covers the whole page while a sign-in is submitted (SPEC section 4), so nothing else can be clicked meanwhile. */
export function LoadingOverlay({ label }: { label: string }) {
  return createPortal(
    <div role="status" aria-live="polite" className="fixed inset-0 z-[100] flex items-center justify-center bg-background/70 backdrop-blur-sm">
      <div className="flex items-center gap-3 rounded-lg border bg-card px-5 py-4 shadow-lg">
        <Loader2 className="size-5 animate-spin text-primary" aria-hidden />
        <span className="text-sm font-medium">{label}</span>
      </div>
    </div>,
    document.body,
  );
}
