import "server-only";
import { env } from "@/env";
import { shopUrl } from "@/server/config/shop-url";
import { getDb } from "@/server/db/client";
import { idSetting, sandboxProbeAnswer, secretSetting, type PortDescription, type Probe } from "../port-status";
import { googleClientProbe } from "./live";
import { createSandboxIdentity, sandboxGoogleClient, type SandboxGoogleAccount, type SandboxIdentity } from "./sandbox";

/** What Auth.js needs for its Google provider: `issuer` points elsewhere than Google for a stand-in. */
export type GoogleSignIn = { clientId: string; clientSecret: string; issuer?: string };

/**
 * Google sign-in for Auth.js: with sandbox integrations always the shop's own stand-in, so the button can be clicked
 * through like every other outside service; with live integrations the real Google, when it is configured.
 */
export function googleSignIn(): GoogleSignIn | undefined {
  if (env.INTEGRATIONS === "sandbox") return sandboxGoogleClient({ baseUrl: shopUrl(), secret: env.AUTH_SECRET });
  return env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET ? { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET } : undefined;
}

/**
 * The stand-in for Google, or null with live integrations, where its pages and endpoints do not exist. The chooser
 * offers `demoCustomer` first when its caller names one (the demo shop's customer, which the seed creates).
 */
export function getSandboxIdentity(options: { demoCustomer?: SandboxGoogleAccount } = {}): SandboxIdentity | null {
  return env.INTEGRATIONS === "sandbox" ? createSandboxIdentity({ db: getDb(), baseUrl: shopUrl(), secret: env.AUTH_SECRET, ...options }) : null;
}

/** A route handler of the stand-in's endpoints (called by the shop's Auth.js, not by a browser): 404 when live. */
export function sandboxIdentityRoute(answer: (identity: SandboxIdentity, request: Request) => Response | Promise<Response>) {
  return async (request: Request): Promise<Response> => {
    const identity = getSandboxIdentity();
    return identity ? answer(identity, request) : new Response("Not found", { status: 404 });
  };
}

/** How Google sign-in is set up, for the owner's integrations page; nothing is called. */
export function describeGoogleSignIn(): PortDescription {
  if (env.INTEGRATIONS === "sandbox") return { mode: "sandbox", detail: "The shop's Google stand-in signs in its demo accounts", endpoint: null, settings: [] };
  const settings = [idSetting("GOOGLE_CLIENT_ID", env.GOOGLE_CLIENT_ID), secretSetting("GOOGLE_CLIENT_SECRET", env.GOOGLE_CLIENT_SECRET)];
  if (!googleSignIn()) return { mode: "off", detail: "No \"Sign in with Google\" button: the OAuth client is not set", endpoint: null, settings };
  return { mode: "live", detail: "Google's OAuth client", endpoint: "https://accounts.google.com", settings };
}

/** The Test connection of Google sign-in: the stand-in has nothing to check; off, there is nothing to test. */
export function googleSignInProbe(): Probe {
  if (env.INTEGRATIONS === "sandbox") return async () => sandboxProbeAnswer;
  const client = googleSignIn();
  if (!client) return async () => Promise.reject(new Error("Google sign-in is off: GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are not set"));
  return googleClientProbe({ ...client, redirectUri: `${shopUrl()}/api/auth/callback/google` });
}
