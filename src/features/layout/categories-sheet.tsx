"use client";

import Link from "next/link";
import { useState, type ReactElement } from "react";
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from "@/components/ui/accordion";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle, SheetTrigger } from "@/components/ui/sheet";
import type { MenuItem, NavbarData } from "@/server/navbar/schemas";
import { menuHref } from "./menu-href";
import { useNavbarData } from "./queries";

/** Nested items: a parent opens as an accordion of its own, a leaf navigates and closes the sheet. */
function NestedItems({ items, onNavigate }: { items: MenuItem[]; onNavigate: () => void }) {
  return (
    <Accordion type="multiple" className="pl-3">
      {items.map((item) =>
        item.children?.length ? (
          <AccordionItem key={item.id} value={String(item.id)} className="border-b-0">
            <AccordionTrigger className="py-2">{item.name}</AccordionTrigger>
            <AccordionContent className="pb-1">
              <Link href={menuHref(item)} onClick={onNavigate} className="block rounded-md py-2 pl-3 text-sm font-medium text-primary hover:underline">
                All {item.name.toLowerCase()}
              </Link>
              <NestedItems items={item.children} onNavigate={onNavigate} />
            </AccordionContent>
          </AccordionItem>
        ) : (
          <Link key={item.id} href={menuHref(item)} onClick={onNavigate} className="block rounded-md py-2 text-sm hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
            {item.name}
          </Link>
        ),
      )}
    </Accordion>
  );
}

/** The mobile menu: a sheet with two accordions, Categories and Manufacturers (SPEC section 2). Loaded on first use, open. */
export default function CategoriesSheet({ trigger, initialData }: { trigger: ReactElement; initialData: NavbarData }) {
  const { data, isPending: loading } = useNavbarData(initialData);
  const [open, setOpen] = useState(true);
  const close = () => setOpen(false);
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>{trigger}</SheetTrigger>
      <SheetContent side="left" className="gap-0">
        <SheetHeader>
          <SheetTitle>Categories &amp; Manufacturers</SheetTitle>
          <SheetDescription>Browse through categories and manufacturers.</SheetDescription>
        </SheetHeader>
        <div className="flex-1 overflow-y-auto px-4 pb-6">
          {loading || !data ? (
            <p className="py-3 text-sm text-muted-foreground">Loading...</p>
          ) : (
            <Accordion type="multiple">
              <AccordionItem value="categories">
                <AccordionTrigger className="text-base">Categories</AccordionTrigger>
                <AccordionContent>
                  <NestedItems items={data.categories} onNavigate={close} />
                </AccordionContent>
              </AccordionItem>
              <AccordionItem value="manufacturers">
                <AccordionTrigger className="text-base">Manufacturers</AccordionTrigger>
                <AccordionContent>
                  <NestedItems items={data.manufacturers} onNavigate={close} />
                </AccordionContent>
              </AccordionItem>
            </Accordion>
          )}
        </div>
      </SheetContent>
    </Sheet>
  );
}
