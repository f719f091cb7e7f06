import { environmentBanner } from "./nav";

/** SPEC section 2's corner banner; production shows none. */
export function EnvironmentBanner({ serverUrl }: { serverUrl: string }) {
  const text = environmentBanner(serverUrl);
  if (!text) return null;
  return (
    <div
      role="note"
      className="pointer-events-none fixed right-0 bottom-0 z-50 rounded-tl-md bg-amber-500/95 px-3 py-1 text-[10px] font-bold tracking-[0.14em] text-black shadow-md"
    >
      {text}
    </div>
  );
}
