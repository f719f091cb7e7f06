// A member of staff signed in over HTTP the way a person does it, for benches that drive the back office of a
// running shop: no session is written into the database behind the shop's back.
import { readFileSync } from "node:fs";
import { DEMO_ADMIN_TOTP_SECRET } from "../src/server/auth/demo-admin";
import { base32Decode, totpCode, totpStep } from "../src/server/auth/totp";
import { delay } from "./shop-server";

const linkWaitMs = 10_000;

/** The links of the sandbox e-mails to `email` that the server logged (pino, one JSON object a line), oldest first. */
function loggedSignInLinks(logFile: string, email: string): string[] {
  const links: string[] = [];
  for (const line of readFileSync(logFile, "utf8").split("\n")) {
    if (!line.includes('"MAIL_SANDBOX"')) continue;
    try {
      const entry = JSON.parse(line) as { to?: string; kind?: string; links?: string[] };
      if (entry.to === email && entry.kind === "sign-in") links.push(...(entry.links ?? []));
    } catch {
      // Not a whole line yet.
    }
  }
  return links;
}

function cookiesOf(response: Response): string[] {
  return response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!);
}

/**
 * Signs `email` in on the shop at `baseUrl` with the e-mail link, as the sign-in page does it: Auth.js's CSRF token,
 * the form post to /api/auth/signin/nodemailer, the link read from the server's log (`logFile`, where the sandbox
 * prints it; a staff account's link is shown nowhere else), and the link opened on `baseUrl`. Answers the session
 * cookie, checked against /api/auth/session.
 */
export async function signInWithEmailLink(baseUrl: string, logFile: string, email: string): Promise<string> {
  const before = new Set(loggedSignInLinks(logFile, email));
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const asked = await fetch(`${baseUrl}/api/auth/signin/nodemailer`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1", cookie: cookiesOf(csrf).join("; "), origin: baseUrl },
    body: new URLSearchParams({ email, csrfToken, callbackUrl: "/admin" }),
  });
  const { url } = (await asked.json()) as { url?: string };
  if (!asked.ok || !url || url.includes("error=")) throw new Error(`Asking for a sign-in link for ${email} failed: HTTP ${asked.status} ${url ?? ""}`);

  let link: string | undefined;
  for (const deadline = Date.now() + linkWaitMs; !link && Date.now() < deadline; await delay(100)) {
    link = loggedSignInLinks(logFile, email).find((candidate) => !before.has(candidate));
  }
  if (!link) throw new Error(`No sign-in link for ${email} in ${logFile} within ${linkWaitMs / 1000} s`);

  // The link is on the shop's public address; it is opened on the server that was asked.
  const { pathname, search } = new URL(link);
  const opened = await fetch(`${baseUrl}${pathname}${search}`, { redirect: "manual" });
  const session = cookiesOf(opened).find((cookie) => /^(__Secure-)?authjs\.session-token=./.test(cookie));
  if (!session) throw new Error(`Opening the sign-in link gave no session (HTTP ${opened.status}, to ${opened.headers.get("location")})`);
  const who = (await (await fetch(`${baseUrl}/api/auth/session`, { headers: { cookie: session } })).json()) as { user?: { email?: string } } | null;
  if (who?.user?.email !== email) throw new Error(`The session is not ${email}'s`);
  await confirmWithDemoCode(baseUrl, session);
  return session;
}

/**
 * Confirms a staff session's second factor as the demo admin's authenticator app would: the code of the secret the
 * README publishes, sent to the factor's page's own procedure. A code is taken once, so a code used in this half
 * minute is followed by the next one.
 */
async function confirmWithDemoCode(baseUrl: string, session: string): Promise<void> {
  const secret = base32Decode(DEMO_ADMIN_TOTP_SECRET);
  for (const offset of [0, 1]) {
    const code = totpCode(secret, totpStep(new Date()) + offset);
    const answer = await fetch(`${baseUrl}/api/trpc/shared.secondFactor.totpVerify`, {
      method: "POST",
      headers: { cookie: session, "content-type": "application/json", origin: baseUrl },
      body: JSON.stringify({ json: { code } }),
    });
    if (answer.ok) return;
  }
  throw new Error("The demo admin's second factor was refused: is the database seeded with the demo shop?");
}
