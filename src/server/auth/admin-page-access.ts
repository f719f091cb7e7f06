import "server-only";
import { cookies, headers } from "next/headers";
import { getDb } from "@/server/db/client";
import { readSession, type Session, type SessionUser } from "./session";

/**
 * Who may open /admin: staff (ADMIN) only, the same rule as `adminProcedure`. The admin layout, the staff documents
 * (print-outs, labels, the CSV export) and the tRPC route ask it.
 */

export type AdminPageAccess =
  | { kind: "admin"; user: SessionUser }
  | { kind: "anonymous" }
  | { kind: "forbidden"; user: SessionUser };

/** The same rule as adminProcedure, for pages: no session is anonymous, a session without ADMIN is forbidden. */
export function decideAdminAccess(session: Session | null): AdminPageAccess {
  if (!session) return { kind: "anonymous" };
  if (session.user.role !== "ADMIN") return { kind: "forbidden", user: session.user };
  return { kind: "admin", user: session.user };
}

/** Who is asking for an /admin page, read from the Auth.js session cookie on the server. */
export async function adminPageAccess(): Promise<AdminPageAccess> {
  // Reading cookies marks the page dynamic: an admin page is never prerendered or cached for another user.
  await cookies();
  return decideAdminAccess(await readSession(getDb(), await headers()));
}
