"use client";

import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { SignInFactors } from "@/features/auth/sign-in-factors";

/** A member of staff's own sign-in security: their passkeys, authenticator app and recovery codes. */
export function SecurityView({ shopName }: { shopName: string }) {
  return (
    <AdminCard className="max-w-2xl">
      <AdminCardHeader title="Your second factors" description="What confirms your sign-in after the e-mail link. Keep at least one; two is safer." />
      <div className="p-4">
        <SignInFactors shopName={shopName} />
      </div>
    </AdminCard>
  );
}
