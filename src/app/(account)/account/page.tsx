import type { Metadata } from "next";
import { env } from "@/env";
import { ProfileCard } from "@/features/account/profile-card";
import { SignInFactors } from "@/features/auth/sign-in-factors";
import { getProfile } from "@/server/account/service";
import { requireSession } from "@/server/auth/require-session";
import { getDb } from "@/server/db/client";

export const metadata: Metadata = { title: "Profile", robots: { index: false } };
export const dynamic = "force-dynamic";

export default async function ProfilePage() {
  const session = await requireSession("/account");
  const profile = await getProfile(getDb(), session.user.id, new Date());
  return (
    <div className="flex flex-col gap-6">
      <ProfileCard profile={profile} />
      <section className="rounded-xl border bg-card p-6 md:max-w-[calc(100%-17.5rem)]" aria-label="Sign-in">
        <SignInFactors shopName={env.SHOP_NAME} />
      </section>
    </div>
  );
}
