import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { signInRedirect } from "@/lib/auth-paths";
import { getDb } from "@/server/db/client";
import { readAnySession, readSession, type PendingSession, type Session } from "./session";

/** The signed-in user for a server page; a visitor is sent to sign in and brought back to `path` afterwards. */
export async function requireSession(path: string): Promise<Session> {
  const current = await readSession(getDb(), await headers());
  if (!current) redirect(signInRedirect(path));
  return current;
}

export async function currentSession(): Promise<Session | null> {
  return readSession(getDb(), await headers());
}

/** Who is signed in, however far: a full session, or a member of staff still owing their second factor. */
export async function currentSignIn(): Promise<{ session: Session | null; pending: PendingSession | null }> {
  return readAnySession(getDb(), await headers());
}
