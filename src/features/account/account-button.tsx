"use client";

import { UserRound } from "lucide-react";
import { useSession } from "next-auth/react";
import { lazy } from "react";
import { LoadOnUse } from "@/components/load-on-use";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { initials } from "@/lib/initials";

const loadLoginDialog = () => import("@/features/auth/login-dialog");
const LoginDialog = lazy(loadLoginDialog);
const loadAccountMenu = () => import("./account-menu");
const AccountMenu = lazy(loadAccountMenu);

export function UserAvatar({ name, email, image, className }: { name: string | null; email: string; image: string | null; className?: string }) {
  return (
    <span className={cn("inline-flex size-8 shrink-0 items-center justify-center overflow-hidden rounded-full bg-primary text-xs font-semibold text-primary-foreground", className)}>
      {image ? (
        // eslint-disable-next-line @next/next/no-img-element -- avatars come from the identity provider's own host
        <img src={image} alt="" className="size-full object-cover" referrerPolicy="no-referrer" />
      ) : (
        initials(name, email)
      )}
    </span>
  );
}

/**
 * The navbar's account item: the login dialog for visitors, the account menu with sign-out for customers. Both load
 * on first use.
 */
export function AccountButton() {
  const { data: session, status } = useSession();

  if (status !== "authenticated" || !session) {
    return (
      <LoadOnUse
        preload={loadLoginDialog}
        trigger={
          <Button variant="ghost" size="icon" aria-label="Sign in" disabled={status === "loading"}>
            <UserRound />
          </Button>
        }
      >
        {(trigger) => <LoginDialog trigger={trigger} />}
      </LoadOnUse>
    );
  }

  const { user } = session;
  return (
    <LoadOnUse
      preload={loadAccountMenu}
      trigger={
        <Button variant="ghost" size="icon" aria-label="Your account" className="rounded-full">
          <UserAvatar name={user.name} email={user.email} image={user.image} />
        </Button>
      }
    >
      {(trigger) => <AccountMenu trigger={trigger} user={user} />}
    </LoadOnUse>
  );
}
