import { cn } from "@/lib/utils";
import { environmentBanner } from "./nav";

/**
 * SPEC section 2's corner banner; production shows none. It is never laid over the page: a label fixed in a corner of
 * the window covered the pages' sticky action bars (Create, Save, Discard sit bottom right). On a phone (`strip`) it
 * is a thin strip in the page's flow above the top bar, which scrolls away; from the medium breakpoint up
 * (`sidebar`) it closes the sidebar's column, the bottom left corner of the screen, beside the page and not on it.
 */
export function EnvironmentBanner({ serverUrl, place }: { serverUrl: string; place: "strip" | "sidebar" }) {
  const text = environmentBanner(serverUrl);
  if (!text) return null;
  return (
    <div
      role="note"
      className={cn(
        "pointer-events-none shrink-0 bg-amber-500/95 px-3 text-center font-bold tracking-[0.14em] text-black",
        place === "strip" ? "py-0.5 text-[9px] md:hidden" : "py-1 text-[10px]",
      )}
    >
      {text}
    </div>
  );
}
