"use client";

import Link from "next/link";
import type { ReactElement } from "react";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuSub,
  DropdownMenuSubContent,
  DropdownMenuSubTrigger,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import type { MenuItem, NavbarData } from "@/server/navbar/schemas";
import { menuHref } from "./menu-href";
import { useNavbarData } from "./queries";

function MenuEntries({ items }: { items: MenuItem[] }) {
  return items.map((item) =>
    item.children?.length ? (
      <DropdownMenuSub key={item.id}>
        <DropdownMenuSubTrigger>{item.name}</DropdownMenuSubTrigger>
        <DropdownMenuSubContent>
          <DropdownMenuItem asChild>
            <Link href={menuHref(item)} className="font-medium">
              All {item.name.toLowerCase()}
            </Link>
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <MenuEntries items={item.children} />
        </DropdownMenuSubContent>
      </DropdownMenuSub>
    ) : (
      <DropdownMenuItem key={item.id} asChild>
        <Link href={menuHref(item)}>{item.name}</Link>
      </DropdownMenuItem>
    ),
  );
}

/**
 * A desktop navbar dropdown: Manufacturers (the brands: children of the first manufacturer entry) or Categories
 * (nested submenus). Loaded on first use, open.
 */
export default function NavMenu({ trigger, menu, initialData }: { trigger: ReactElement; menu: "manufacturers" | "categories"; initialData: NavbarData }) {
  const { data, isPending } = useNavbarData(initialData);
  const items = menu === "manufacturers" ? (data?.manufacturers[0]?.children ?? (data ? [] : undefined)) : data?.categories;
  return (
    <DropdownMenu modal={false} defaultOpen>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="max-h-[40vh] w-64">
        {isPending || !items ? <DropdownMenuItem disabled>Loading...</DropdownMenuItem> : <MenuEntries items={items} />}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
