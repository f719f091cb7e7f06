import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInCard } from "@/features/auth/sign-in-card";
import { signInErrorMessage } from "@/features/auth/sign-in-errors";
import { localPath } from "@/server/auth/redirect";
import { currentSession } from "@/server/auth/require-session";

export const metadata: Metadata = { title: "Sign in", robots: { index: false } };
export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; error?: string }> }) {
  const { callbackUrl, error } = await searchParams;
  if (await currentSession()) redirect(localPath(callbackUrl));
  return <SignInCard error={signInErrorMessage(error)} />;
}
