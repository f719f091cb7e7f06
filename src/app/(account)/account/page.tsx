import type { Metadata } from "next";
import { ProfileCard } from "@/features/account/profile-card";
import { getProfile } from "@/server/account/service";
import { requireSession } from "@/server/auth/require-session";
import { getDb } from "@/server/db/client";

export const metadata: Metadata = { title: "Profile", robots: { index: false } };
export const dynamic = "force-dynamic";

export default async function ProfilePage() {
  const session = await requireSession("/account");
  const profile = await getProfile(getDb(), session.user.id, new Date());
  return <ProfileCard profile={profile} />;
}
