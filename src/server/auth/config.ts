import "server-only";
import { DrizzleAdapter } from "@auth/drizzle-adapter";
import type { AuthConfig } from "@auth/core";
import Google from "next-auth/providers/google";
import Nodemailer from "next-auth/providers/nodemailer";
import type { UserRole } from "@/lib/enums";
import { SIGN_IN_PATH } from "@/lib/auth-paths";
import { shopIdentity } from "@/lib/shop";
import type { Db } from "@/server/db/client";
import { account, session, user, verificationToken } from "@/server/db/schema";
import type { MailPort } from "@/server/integrations/mail/port";
import type { Logger } from "@/server/logger";
import { safeRedirect } from "./redirect";
import { withHashedSessions } from "./session-token";
import { renderSignInEmail } from "./sign-in-email";
import { logSignUp } from "./sign-up-log";

/** A sign-in link works this long, and once. */
export const SIGN_IN_LINK_MAX_AGE_SECONDS = 60 * 60;

export type AuthDependencies = {
  db: Db;
  mail: MailPort;
  log: Logger;
  secret: string;
  /** Verifies the visitor token a sign-in request carries, for the per-visitor limit on sign-in e-mails. */
  visitorTokenSecret: string;
  shopName: string;
  /**
   * Google sign-in, when there is one (see googleSignIn()): `issuer` points elsewhere than Google with sandbox
   * integrations (the shop's own stand-in at /sandbox/google) and in tests (a local OpenID Connect server).
   */
  google?: { clientId: string; clientSecret: string; issuer?: string };
  /** The shop's public address (shopUrl()): Auth.js sees every request on it, whatever Host was sent. */
  origin: string;
};

/**
 * Auth.js for the shop (ARCHITECTURE section 1): database sessions on the Drizzle tables (kept under their token's
 * hash), sign-in by e-mail link and by Google, the user's role in the session, and redirects only within the shop.
 * A member of staff signed in this way still has a second factor to confirm (second-factor.ts).
 */
export function createAuthConfig(deps: AuthDependencies): AuthConfig {
  const { db, mail, log } = deps;
  return {
    secret: deps.secret,
    basePath: "/api/auth",
    adapter: withHashedSessions(DrizzleAdapter(db, { usersTable: user, accountsTable: account, sessionsTable: session, verificationTokensTable: verificationToken })),
    session: { strategy: "database" },
    pages: { signIn: SIGN_IN_PATH, error: SIGN_IN_PATH, verifyRequest: `${SIGN_IN_PATH}/check-email` },
    providers: [
      Nodemailer({
        // The provider insists on a server; sending goes through the shop's mail port below instead.
        server: "smtp://localhost",
        maxAge: SIGN_IN_LINK_MAX_AGE_SECONDS,
        async sendVerificationRequest({ identifier, url, expires }) {
          await mail.send(renderSignInEmail({ to: identifier, url, expires, shopName: deps.shopName, strapLine: shopIdentity.strapLine }));
        },
      }),
      ...(deps.google
        ? [
            Google({
              clientId: deps.google.clientId,
              clientSecret: deps.google.clientSecret,
              ...(deps.google.issuer ? { issuer: deps.google.issuer } : {}),
              // Google vouches for the address (checked in signIn below), so a customer who first signed in by
              // e-mail link gets Google linked to the same account instead of an "account not linked" error.
              allowDangerousEmailAccountLinking: true,
            }),
          ]
        : []),
    ],
    callbacks: {
      signIn({ account: signInAccount, profile }) {
        if (signInAccount?.provider === "google") return profile?.email_verified === true;
        return true;
      },
      redirect({ url, baseUrl }) {
        return safeRedirect(url, baseUrl);
      },
      session({ session: current, user: adapterUser }) {
        const row = adapterUser as typeof adapterUser & { role: UserRole };
        // Only the user and the expiry reach the browser, never the session token or other adapter fields.
        return {
          expires: current.expires,
          user: { id: row.id, name: row.name ?? null, email: row.email, image: row.image ?? null, role: row.role },
        };
      },
    },
    events: {
      createUser({ user: created }) {
        log.info({ event: "AUTH", userId: created.id }, "new customer account created");
      },
      linkAccount({ user: linked, account: linkedAccount }) {
        log.info({ event: "AUTH", userId: linked.id, provider: linkedAccount.provider }, "sign-in method linked to an account");
      },
      async signIn({ user: signedIn, account: signInAccount, isNewUser }) {
        log.info({ event: "AUTH", userId: signedIn.id, provider: signInAccount?.provider, isNewUser }, "signed in");
        if (!isNewUser || !signedIn.id) return;
        // The account exists by now; a logbook that cannot be written must not turn the sign-up into an error page.
        await logSignUp(db, { userId: signedIn.id, email: signedIn.email, provider: signInAccount?.provider }).catch((err: unknown) =>
          log.error({ event: "AUTH", err, userId: signedIn.id }, "could not write the sign-up to the logbook"),
        );
      },
    },
    logger: {
      error(error) {
        log.warn({ event: "AUTH", err: error }, `auth: ${error.name}`);
      },
      warn(code) {
        log.warn({ event: "AUTH" }, `auth warning: ${code}`);
      },
      debug() {},
    },
  };
}
