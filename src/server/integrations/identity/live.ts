import type { Probe } from "../port-status";

/** Google's OAuth token endpoint, where Auth.js trades a sign-in's code for the user's tokens. */
export const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";

/**
 * The owner's Test connection for Google sign-in. Google has no call that only checks a client's credentials, so
 * this trades a code that cannot exist: Google answers `invalid_grant` when it knew the client id and secret (and
 * only then looked at the code), and `invalid_client` or `unauthorized_client` when it did not. Nobody is signed in
 * and nothing is stored.
 */
export function googleClientProbe(options: { clientId: string; clientSecret: string; redirectUri: string; tokenUrl?: string; timeoutMs?: number }): Probe {
  return async () => {
    let response: Response;
    try {
      response = await fetch(options.tokenUrl ?? GOOGLE_TOKEN_URL, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code: "integrations-page-test-not-a-code",
          client_id: options.clientId,
          client_secret: options.clientSecret,
          redirect_uri: options.redirectUri,
        }).toString(),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : "";
      throw new Error(`Google could not be reached: ${error instanceof Error ? error.message : String(error)}${cause}`);
    }
    const text = await response.text();
    let said: { error?: unknown; error_description?: unknown } = {};
    try {
      said = JSON.parse(text) as typeof said;
    } catch {
      // Not Google's OAuth error document: the status says what there is to say.
    }
    if (said.error === "invalid_grant") return "Google knows the client id and secret";
    const why = typeof said.error === "string" ? `${said.error}${typeof said.error_description === "string" ? `: ${said.error_description}` : ""}` : `HTTP ${response.status}`;
    throw new Error(`Google refused the shop's OAuth client (${why})`);
  };
}
