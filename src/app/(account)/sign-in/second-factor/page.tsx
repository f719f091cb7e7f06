import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { env } from "@/env";
import { SecondFactorCard } from "@/features/auth/second-factor-card";
import { signInRedirect } from "@/lib/auth-paths";
import { localPath } from "@/server/auth/redirect";
import { currentSignIn } from "@/server/auth/require-session";

export const metadata: Metadata = { title: "Confirm it's you", robots: { index: false } };
export const dynamic = "force-dynamic";

/** Where a member of staff signed in by e-mail link confirms their second factor (or adds one, the first time). */
export default async function SecondFactorPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  const target = localPath(callbackUrl ?? "/admin/dashboard");
  const { session, pending } = await currentSignIn();
  if (session) redirect(target);
  if (!pending) redirect(signInRedirect(target));
  return <SecondFactorCard callbackUrl={target} shopName={env.SHOP_NAME} />;
}
