"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { Suspense, useEffect, useRef } from "react";

const STORAGE_KEY = "scroll-positions";

type Positions = Record<string, number>;
/** A position to go back to once the history entry's page is rendered and tall enough for it. */
type Restore = { address: string; y: number };

function readPositions(): Positions {
  try {
    return JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? "{}") as Positions;
  } catch {
    return {};
  }
}

function writePositions(positions: Positions) {
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(positions));
  } catch {
    // Storage full or refused (private mode): the positions still hold for this page's lifetime.
  }
}

/** The history entry's address: the same path with another query is another list (a search, a category). */
function currentAddress(): string {
  return window.location.pathname + window.location.search;
}

/** How far down the page can scroll now. */
function scrollRoom(): number {
  const page = document.scrollingElement ?? document.documentElement;
  return page.scrollHeight - page.clientHeight;
}

/** Arrived by the browser's back or forward button, or a reload, in a new document rather than a client-side traversal. */
function arrivedThroughHistory(): boolean {
  const [entry] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
  return entry?.type === "back_forward" || entry?.type === "reload";
}

/**
 * Saves the scroll position of every address the visitor sees and restores it when they come back to it with the
 * browser's back or forward button (SPEC section 2). A link click starts at the top as usual: Next scrolls on a push.
 *
 * Next leaves a traversal's scroll to the browser, and the browser restores it at once, while the page it leaves is
 * still shown and before the list it goes back to has been rendered; so the browser's restoration is switched off
 * while the shop layout is mounted and done here, once the page for that address has rendered and is tall enough.
 * A position is recorded under the address in the location bar when the scroll happens, so a scroll Next or the
 * browser makes after the address changed is never booked to the page that was left.
 */
export function ScrollRestoration() {
  // useSearchParams would make the whole layout wait for the client on a prerendered page without a boundary.
  return (
    <Suspense fallback={null}>
      <AddressScrollKeeper />
    </Suspense>
  );
}

function AddressScrollKeeper() {
  const pathname = usePathname();
  const query = useSearchParams().toString();
  const keeper = useRef<ReturnType<typeof keepScrollPositions> | null>(null);

  useEffect(() => {
    const positions = keepScrollPositions();
    keeper.current = positions;
    return () => {
      keeper.current = null;
      positions.stop();
    };
  }, []);

  useEffect(() => {
    keeper.current?.rendered();
  }, [pathname, query]);

  return null;
}

/**
 * Records positions as the visitor scrolls and brings one back after a traversal. Next may render the page it goes
 * back to inside its own popstate listener, before this one hears of it: the restore starts at whichever of the two,
 * the traversal and the page's render, comes second.
 */
function keepScrollPositions() {
  const positions = readPositions();
  const previousMode = window.history.scrollRestoration;
  window.history.scrollRestoration = "manual";
  /** The address whose page was rendered last. */
  let rendered: string | null = null;
  let pending: Restore | null = null;
  let stopRestoring = () => {};

  const restore = (target: Restore) => {
    const visitorScrolls = ["wheel", "touchstart", "keydown", "pointerdown"] as const;
    // Images and lazily loaded parts grow the list after its first render: wait until the position fits.
    const attempt = () => {
      if (scrollRoom() < target.y) return;
      window.scrollTo(0, target.y);
      stop();
    };
    const observer = new ResizeObserver(attempt);
    const stop = () => {
      if (pending === target) pending = null;
      observer.disconnect();
      for (const type of visitorScrolls) window.removeEventListener(type, stop);
    };
    stopRestoring = stop;
    observer.observe(document.body);
    // The visitor scrolling while the page is still growing keeps their own position.
    for (const type of visitorScrolls) window.addEventListener(type, stop, { passive: true });
    attempt();
  };

  const comingBack = () => {
    stopRestoring();
    const address = currentAddress();
    // An address not seen before in this tab was at its top: Next does not scroll on a traversal, so say so.
    pending = { address, y: positions[address] ?? 0 };
    if (rendered === address) restore(pending);
  };
  const onScroll = () => {
    const address = currentAddress();
    // Until the page is back where it was, the positions passed on the way are not the visitor's.
    if (pending?.address === address) return;
    positions[address] = Math.round(window.scrollY);
  };
  const save = () => writePositions(positions);

  if (arrivedThroughHistory()) comingBack();
  window.addEventListener("popstate", comingBack);
  window.addEventListener("scroll", onScroll, { passive: true });
  window.addEventListener("pagehide", save);

  return {
    /** The page for the address in the location bar has been rendered. */
    rendered() {
      const address = currentAddress();
      if (address === rendered) return;
      rendered = address;
      if (pending?.address === address) restore(pending);
      else {
        // Another page than the one the traversal went to: the visitor has moved on.
        stopRestoring();
        pending = null;
      }
    },
    stop() {
      stopRestoring();
      window.removeEventListener("popstate", comingBack);
      window.removeEventListener("scroll", onScroll);
      window.removeEventListener("pagehide", save);
      save();
      window.history.scrollRestoration = previousMode;
    },
  };
}
