import { cn } from "@/lib/utils";

/**
 * The balance-wheel mark as two images, one per theme (the dark one has light ink and a lifted brass), switched by
 * the `dark` class so that the right one shows from the first paint. Size it with a `size-*` class. The dark one
 * loads lazily: hidden in the light theme (the default), it is then never fetched, nor preloaded ahead of the
 * page's own pictures.
 */
export function BalanceWheelMark({ className = "size-8" }: { className?: string }) {
  return (
    <>
      {/* Plain <img>: small SVGs gain nothing from the image optimiser. */}
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img src="/logo-light.svg" alt="" width={32} height={32} className={cn(className, "dark:hidden")} />
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img src="/logo-dark.svg" alt="" width={32} height={32} loading="lazy" className={cn(className, "hidden dark:block")} />
    </>
  );
}

/** The mark and the shop's name, which is configurable. */
export function Logo({ name, className }: { name: string; className?: string }) {
  return (
    <span className={cn("inline-flex items-center gap-2.5", className)}>
      <BalanceWheelMark />
      <span className="font-serif text-xl font-semibold tracking-tight whitespace-nowrap">{name}</span>
    </span>
  );
}
