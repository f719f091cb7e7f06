"use client";

import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import * as Progress from "@radix-ui/react-progress";
import { ArrowLeft, ArrowUpRight, Bell, CheckCheck, Monitor, Moon, Sun } from "lucide-react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useTheme } from "next-themes";
import { useSyncExternalStore, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { formatDateTime } from "../kit/format";
import { backSteps, headingFor } from "./nav";
import { useBulkOfferProgress, useMarkAllNotificationsRead, useMarkNotificationRead, useNotifications } from "./queries";

function BackButton() {
  const router = useRouter();
  const search = useSearchParams();
  return (
    <Button
      variant="ghost"
      size="icon"
      className="size-8 shrink-0"
      aria-label="Back"
      title="Back (Alt+←)"
      onClick={() => {
        const steps = backSteps(new URLSearchParams(search.toString()));
        if (steps === 1) router.back();
        else window.history.go(-steps);
      }}
    >
      <ArrowLeft />
    </Button>
  );
}

/** The bulk marketplace update's progress bar; nothing at all while no update runs (SPEC section 2). */
function ProgressArea() {
  const { data } = useBulkOfferProgress();
  const progress = data?.progress;
  if (!progress) return null;
  const percent = Math.min(100, Math.max(0, Number.parseInt(progress.currentPercent, 10) || 0));
  return (
    // On a phone only the bar and the percentage show; the words stay for screen readers.
    <div className="flex items-center gap-2 rounded-md border bg-card px-2 py-1.5 md:min-w-56 md:gap-3 md:px-3" role="status" aria-label="Marketplace offers update">
      <div className="w-12 md:w-auto md:flex-1">
        <p className="sr-only text-[11px] font-medium text-muted-foreground md:not-sr-only">
          Updating marketplace offers · {progress.currentCount} of {progress.totalCount}
        </p>
        <Progress.Root value={percent} max={100} className="h-1.5 overflow-hidden rounded-full bg-muted md:mt-1">
          <Progress.Indicator className="h-full bg-primary transition-transform" style={{ transform: `translateX(-${100 - percent}%)` }} />
        </Progress.Root>
      </div>
      <span className="text-xs font-semibold tabular-nums">{percent}%</span>
    </div>
  );
}

const subscribeNever = () => () => {};

function ThemeToggle() {
  const { theme, setTheme } = useTheme();
  // The stored theme is only known in the browser; render a neutral icon until then.
  const mounted = useSyncExternalStore(subscribeNever, () => true, () => false);
  const order = ["light", "dark", "system"] as const;
  const current = mounted ? ((order as readonly string[]).includes(theme ?? "") ? (theme as (typeof order)[number]) : "light") : "light";
  const next = order[(order.indexOf(current) + 1) % order.length]!;
  const Icon = current === "dark" ? Moon : current === "system" ? Monitor : Sun;
  return (
    <Button variant="ghost" size="icon" className="size-8" aria-label={`Theme: ${current}. Switch to ${next}`} title={`Theme: ${current}`} onClick={() => setTheme(next)}>
      <Icon />
    </Button>
  );
}

const severityDot = { INFO: "bg-sky-500", WARNING: "bg-amber-500", ERROR: "bg-destructive" } as const;

/** The top bar's further icon button: staff notifications, with mark as read. */
function NotificationsButton() {
  const list = useNotifications();
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  const unread = list.data?.unread ?? 0;
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <Button variant="ghost" size="icon" className="relative size-8" aria-label={`Notifications, ${unread} unread`}>
          <Bell />
          {unread > 0 ? (
            <span className="absolute top-1 right-1 flex size-4 items-center justify-center rounded-full bg-destructive text-[9px] font-bold text-destructive-foreground">
              {unread > 9 ? "9+" : unread}
            </span>
          ) : null}
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={6} collisionPadding={8} className="z-50 w-[min(24rem,calc(100vw-1rem))] rounded-lg border bg-popover p-1 text-popover-foreground shadow-lg">
          <div className="flex items-center justify-between px-2.5 py-2">
            <p className="text-sm font-semibold">Notifications</p>
            <button
              type="button"
              disabled={unread === 0 || markAll.isPending}
              onClick={() => markAll.mutate()}
              className="inline-flex items-center gap-1 text-xs text-primary hover:underline disabled:opacity-40"
            >
              <CheckCheck className="size-3.5" /> Mark all read
            </button>
          </div>
          <div className="max-h-96 overflow-y-auto">
            {list.data?.rows.length ? (
              list.data.rows.map((row) => {
                const contents = (
                  <>
                    <span className={cn("mt-1.5 size-2 shrink-0 rounded-full", severityDot[row.severity])} aria-label={row.severity.toLowerCase()} />
                    <span className="min-w-0 flex-1">
                      <span className="block text-[13px] leading-snug">{row.message}</span>
                      <span className="mt-0.5 block text-[11px] text-muted-foreground">
                        {row.type.replaceAll("_", " ").toLowerCase()} · {formatDateTime(row.createdAt)}
                        {row.readBy ? ` · read by ${row.readBy}` : row.href ? "" : " · click to mark read"}
                      </span>
                    </span>
                    {row.href ? <ArrowUpRight className="mt-0.5 size-3.5 shrink-0 text-primary" aria-hidden="true" /> : null}
                  </>
                );
                const className = cn("flex gap-2.5 rounded-md px-2.5 py-2 outline-none data-[highlighted]:bg-accent", row.href ? "cursor-pointer" : "cursor-default", row.readBy && "opacity-60");
                // One that leads somewhere opens it (and counts as read); the others are marked read where they are.
                return row.href ? (
                  <DropdownMenu.Item key={row.id} asChild onSelect={() => !row.readBy && markRead.mutate({ id: row.id })} className={className}>
                    <Link href={row.href}>{contents}</Link>
                  </DropdownMenu.Item>
                ) : (
                  <DropdownMenu.Item
                    key={row.id}
                    onSelect={(event) => {
                      event.preventDefault();
                      if (!row.readBy) markRead.mutate({ id: row.id });
                    }}
                    className={className}
                  >
                    {contents}
                  </DropdownMenu.Item>
                );
              })
            ) : (
              <p className="px-2.5 py-6 text-center text-sm text-muted-foreground">No notifications.</p>
            )}
          </div>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/**
 * `menu` is the phone's menu button (admin-nav-drawer.tsx), shown below the medium breakpoint only. There the bar
 * keeps to one row: tighter spacing, a smaller heading that truncates, the buttons at a fixed size.
 */
export function AdminTopbar({ menu }: { menu?: ReactNode }) {
  const pathname = usePathname();
  return (
    <header className="sticky top-0 z-30 flex h-14 items-center gap-1.5 border-b bg-background/90 px-3 backdrop-blur supports-[backdrop-filter]:bg-background/75 md:gap-3 md:px-5">
      {menu}
      <BackButton />
      <h1 className="min-w-0 truncate font-serif text-lg font-semibold md:text-xl">{headingFor(pathname)}</h1>
      <div className="ml-auto flex shrink-0 items-center gap-1.5">
        <ProgressArea />
        <ThemeToggle />
        <NotificationsButton />
      </div>
    </header>
  );
}
