import { environmentBanner } from "./nav";

/**
 * SPEC section 2's corner banner; production shows none. From the medium breakpoint up it sits fixed in the bottom
 * right corner. On a phone a corner label would cover the pages' sticky action bars (Save, Discard), so there it is a
 * thin strip in the page's flow above the top bar, which scrolls away and hides nothing.
 */
export function EnvironmentBanner({ serverUrl }: { serverUrl: string }) {
  const text = environmentBanner(serverUrl);
  if (!text) return null;
  return (
    <div
      role="note"
      className="pointer-events-none bg-amber-500/95 px-3 py-0.5 text-center text-[9px] font-bold tracking-[0.14em] text-black md:fixed md:right-0 md:bottom-0 md:z-50 md:rounded-tl-md md:py-1 md:text-[10px] md:shadow-md"
    >
      {text}
    </div>
  );
}
