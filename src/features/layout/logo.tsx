import { cn } from "@/lib/utils";

/** The balance-wheel mark: a rim, four spokes and the hairspring, drawn in the current text colour. */
export function BalanceWheelMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 48 48" aria-hidden="true" className={cn("h-8 w-8", className)} fill="none" stroke="currentColor">
      <circle cx="24" cy="24" r="19" strokeWidth="3" />
      <circle cx="24" cy="24" r="3.5" strokeWidth="2" />
      <path d="M24 5v15.5M24 27.5V43M5 24h15.5M27.5 24H43" strokeWidth="2" />
      <path d="M24 24c0-2.5 2.2-4.4 4.6-4.1 3.2.4 4.9 3.8 3.7 6.7-1.5 3.7-6.1 5-9.5 3.2-4.1-2.2-5.2-7.6-2.8-11.4" strokeWidth="1.4" className="text-brass" stroke="currentColor" />
    </svg>
  );
}

export function Logo({ name, className }: { name: string; className?: string }) {
  return (
    <span className={cn("inline-flex items-center gap-2.5", className)}>
      <BalanceWheelMark className="text-brass" />
      <span className="font-serif text-xl font-semibold tracking-tight">{name}</span>
    </span>
  );
}
