import type { ReactNode } from "react";
import { AccountNav } from "@/features/account/account-nav";

export default function AccountLayout({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6 px-4 py-10 sm:px-6">
      <div>
        <p className="text-sm font-medium tracking-widest text-primary uppercase">Your account</p>
        <AccountNav />
      </div>
      {children}
    </div>
  );
}
