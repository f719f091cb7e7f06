"use client";

import * as Collapsible from "@radix-ui/react-collapsible";
import {
  BookText,
  ChartColumn,
  ChevronRight,
  CloudUpload,
  LayoutDashboard,
  Package,
  Percent,
  Settings,
  ShieldCheck,
  ShoppingBag,
  Store,
  Tags,
  Truck,
  Users,
  type LucideIcon,
} from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useState, type MouseEvent, type ReactNode } from "react";
import { NavListItem } from "@/components/nav-list-item";
import { BalanceWheelMark } from "@/features/layout/logo";
import { cn } from "@/lib/utils";
import type { SidebarInformation } from "@/server/admin/schemas";
import { activeNav, navGroups, type IconName, type NavItem } from "./nav";
import { useSidebarCounts } from "./queries";
import { initials } from "@/lib/initials";

const icons: Record<IconName, LucideIcon> = {
  dashboard: LayoutDashboard,
  reports: ChartColumn,
  products: Tags,
  boxes: Package,
  bucket: CloudUpload,
  orders: ShoppingBag,
  customers: Users,
  discounts: Percent,
  surcharge: Truck,
  marketplace: Store,
  logbook: BookText,
  settings: Settings,
};

export type AdminUser = { name: string | null; email: string; image: string | null };


function CountBadge({ value, tone }: { value: number; tone?: NavItem["tone"] }) {
  if (value <= 0) return null;
  return (
    <span
      className={cn(
        "ml-auto min-w-5 rounded-full px-1.5 text-center text-[10px] leading-5 font-semibold tabular-nums",
        tone === "danger" ? "bg-destructive text-destructive-foreground" : tone === "warning" ? "bg-amber-500 text-black" : "bg-[var(--admin-badge)] text-foreground",
      )}
    >
      {value > 999 ? "999+" : value}
    </span>
  );
}

/**
 * The back office's sidebar from the medium breakpoint up: a fixed column beside the page. Below it the same contents
 * live in the drawer that the top bar's menu button opens (admin-nav-drawer.tsx), so this column is not rendered
 * visible there. It stays mounted either way: SPEC section 2's count refresh after every route change runs here once.
 */
export function AdminSidebar({ user, banner }: { user: AdminUser; banner?: ReactNode }) {
  const pathname = usePathname();
  const { refetch } = useSidebarCounts();
  useEffect(() => {
    void refetch();
  }, [pathname, refetch]);
  return (
    <aside className="sticky top-0 hidden h-dvh w-64 shrink-0 flex-col border-r bg-[var(--admin-sidebar)] md:flex">
      <SidebarContents user={user} />
      {banner}
    </aside>
  );
}

/**
 * What the sidebar shows: the title, the greeting, the grouped routes with their counts and the way back to the shop.
 * `roomy` gives a finger-sized row height (the phone drawer); `onNavigate` runs when one of its links is followed.
 */
export function SidebarContents({ user, roomy = false, onNavigate }: { user: AdminUser; roomy?: boolean; onNavigate?: () => void }) {
  const pathname = usePathname();
  const sidebar = useSidebarCounts();
  const active = activeNav(pathname);
  const [open, setOpen] = useState<Set<string>>(() => new Set(active ? [active.group.id] : []));

  // SPEC section 2: the group of the new route opens.
  const activeGroup = active?.group.id;
  const [openedFor, setOpenedFor] = useState(activeGroup);
  if (activeGroup !== openedFor) {
    setOpenedFor(activeGroup);
    if (activeGroup && !open.has(activeGroup)) setOpen(new Set([...open, activeGroup]));
  }

  const info: SidebarInformation | undefined = sidebar.data;
  const toggle = (id: string, value: boolean) => {
    const next = new Set(open);
    if (value) next.add(id);
    else next.delete(id);
    setOpen(next);
  };
  // One listener for every link below (Next's links have already called preventDefault by then, so that says
  // nothing); a click that opens a new tab or window leaves the drawer where it is.
  const followed = (event: MouseEvent<HTMLElement>) => {
    if (!onNavigate || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (event.target instanceof Element && event.target.closest("a[href]")) onNavigate();
  };

  return (
    <div className="flex min-h-0 flex-1 flex-col" onClick={followed}>
      <div className={cn("flex h-14 shrink-0 items-center gap-2.5 border-b px-4", roomy && "pr-12")}>
        <BalanceWheelMark className="size-7" />
        <div className="leading-tight">
          <p className="font-serif text-[15px] font-semibold tracking-tight">Admin panel</p>
          <p className="text-[11px] text-muted-foreground">Balance &amp; Crown back office</p>
        </div>
      </div>

      <div className="flex shrink-0 items-center gap-3 border-b px-4 py-3">
        {user.image ? (
          // eslint-disable-next-line @next/next/no-img-element -- avatars come from the sign-in provider's own host
          <img src={user.image} alt="" className="size-9 rounded-full object-cover ring-1 ring-border" />
        ) : (
          <span aria-hidden="true" className="flex size-9 items-center justify-center rounded-full bg-primary/15 text-xs font-semibold text-primary ring-1 ring-primary/25">
            {initials(user.name, user.email)}
          </span>
        )}
        <div className="min-w-0">
          <p className="truncate text-sm font-medium" data-testid="admin-greeting">
            Hello, {user.name || user.email}
          </p>
          <p className="truncate text-[11px] text-muted-foreground">{user.email}</p>
          <Link href="/admin/security" onClick={onNavigate} className="inline-flex items-center gap-1 text-[11px] text-primary hover:underline">
            <ShieldCheck className="size-3" aria-hidden /> Sign-in security
          </Link>
        </div>
      </div>

      <nav aria-label="Admin" className="min-h-0 flex-1 overflow-y-auto px-2 py-3">
        <ul className="space-y-0.5">
          {navGroups.map((group) => {
            const Icon = icons[group.icon];
            const isActiveGroup = active?.group.id === group.id;
            const groupCount = info && group.count ? group.count(info) : 0;
            if (group.items.length === 1) {
              const item = group.items[0]!;
              const isActive = active?.item.href === item.href;
              return (
                <NavListItem
                  key={group.id}
                  href={item.href}
                  active={isActive}
                  className={cn(
                    "flex h-8 items-center gap-2.5 rounded-md px-2.5 text-sm font-medium text-foreground/80 hover:bg-accent hover:text-foreground",
                    roomy && "h-10 text-[15px]",
                  )}
                  activeClassName="bg-primary/12 text-foreground ring-1 ring-primary/20"
                >
                  <Icon className={cn("size-4", isActive ? "text-primary" : "text-muted-foreground")} />
                  {group.label}
                </NavListItem>
              );
            }
            return (
              <li key={group.id}>
                <Collapsible.Root open={open.has(group.id)} onOpenChange={(value) => toggle(group.id, value)}>
                  <Collapsible.Trigger
                    className={cn(
                      "group flex h-8 w-full items-center gap-2.5 rounded-md px-2.5 text-sm font-medium text-foreground/80 hover:bg-accent hover:text-foreground",
                      roomy && "h-10 text-[15px]",
                      isActiveGroup && "text-foreground",
                    )}
                  >
                    <Icon className={cn("size-4", isActiveGroup ? "text-primary" : "text-muted-foreground")} />
                    <span>{group.label}</span>
                    <CountBadge value={groupCount} />
                    <ChevronRight className={cn("size-3.5 text-muted-foreground transition-transform group-data-[state=open]:rotate-90", groupCount > 0 ? "ml-1" : "ml-auto")} />
                  </Collapsible.Trigger>
                  <Collapsible.Content className="overflow-hidden data-[state=closed]:animate-collapsible-up data-[state=open]:animate-collapsible-down">
                    <ul className="my-0.5 ml-[18px] space-y-px border-l pl-2">
                      {group.items.map((item) => (
                        <NavListItem
                          key={item.href}
                          href={item.href}
                          active={active?.item.href === item.href}
                          className={cn(
                            "flex h-7 items-center gap-2 rounded-md px-2 text-[13px] text-muted-foreground hover:bg-accent hover:text-foreground",
                            roomy && "h-9 text-sm",
                          )}
                          activeClassName="bg-primary/12 font-medium text-foreground ring-1 ring-primary/20"
                        >
                          <span className="truncate">{item.label}</span>
                          {info && item.count ? <CountBadge value={item.count(info)} tone={item.tone} /> : null}
                        </NavListItem>
                      ))}
                    </ul>
                  </Collapsible.Content>
                </Collapsible.Root>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className={cn("shrink-0 border-t px-4 py-2.5 text-[11px] text-muted-foreground", roomy && "py-3 text-[13px]")}>
        <Link href="/" className="hover:text-foreground hover:underline">
          ← Back to the shop
        </Link>
      </div>
    </div>
  );
}
