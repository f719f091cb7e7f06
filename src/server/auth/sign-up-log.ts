import "server-only";
import type { Db } from "@/server/db/client";
import { logChange } from "@/server/logbook/service";

const byProvider: Record<string, string> = { google: "with Google", nodemailer: "by e-mail link" };

/**
 * The logbook entry of a new customer account, whichever way it was made (Auth.js creates the user in its adapter,
 * outside any transaction of ours, so the entry follows it): written once, from the sign-in that created it.
 */
export async function logSignUp(db: Db, signUp: { userId: string; email: string | null | undefined; provider: string | undefined }): Promise<void> {
  const how = (signUp.provider && byProvider[signUp.provider]) ?? (signUp.provider ? `with ${signUp.provider}` : "");
  await logChange(db, {
    userId: signUp.userId,
    eventType: "CUSTOMER",
    entityType: "USER",
    entityId: signUp.userId,
    newState: { email: signUp.email ?? null, signedUpWith: signUp.provider ?? null },
    description: `New customer account: ${signUp.email ?? signUp.userId} signed up ${how}`.trimEnd(),
  });
}
