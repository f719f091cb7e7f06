"use client";

import { UserRound } from "lucide-react";
import { Button } from "@/components/ui/button";

/**
 * The navbar's sign-in item. Until sign-in exists (accounts and cart issue) it is inert; the navbar imports it from
 * here so that the login dialog can replace it without touching the navbar.
 */
export function AccountButton({ className }: { className?: string }) {
  return (
    <Button variant="ghost" size="icon" aria-label="Sign in" className={className} disabled>
      <UserRound />
    </Button>
  );
}
