import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInCard } from "@/features/auth/sign-in-card";
import { signInErrorMessage } from "@/features/auth/sign-in-errors";
import { localPath } from "@/server/auth/redirect";
import { currentSignIn } from "@/server/auth/require-session";

export const metadata: Metadata = { title: "Sign in", robots: { index: false } };
export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; error?: string }> }) {
  const { callbackUrl, error } = await searchParams;
  const { session, pending } = await currentSignIn();
  if (session) redirect(localPath(callbackUrl));
  // Staff signed in by e-mail link go on to confirm their second factor, and on from there to where they were going.
  if (pending) redirect(`/sign-in/second-factor?${new URLSearchParams({ callbackUrl: localPath(callbackUrl) })}`);
  return <SignInCard error={signInErrorMessage(error)} />;
}
