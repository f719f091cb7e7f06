import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInCard } from "@/features/auth/sign-in-card";
import { signInErrorMessage } from "@/features/auth/sign-in-errors";
import { currentSession } from "@/server/auth/require-session";

export const metadata: Metadata = { title: "Sign in", robots: { index: false } };
export const dynamic = "force-dynamic";

/** Only paths on this shop: the page never sends anyone elsewhere. */
function localPath(value: string | undefined): string {
  return value && value.startsWith("/") && !value.startsWith("//") ? value : "/";
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; error?: string }> }) {
  const { callbackUrl, error } = await searchParams;
  if (await currentSession()) redirect(localPath(callbackUrl));
  return <SignInCard error={signInErrorMessage(error)} />;
}
