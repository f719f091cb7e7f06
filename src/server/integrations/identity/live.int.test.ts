import { describe, expect, it } from "vitest";
import { startProviderServer } from "../../../../tests/helpers/provider-server";
import { standInForFile } from "../../../../tests/helpers/stand-in";
import { googleClientProbe } from "./live";

/**
 * Google sign-in's Test connection against a stand-in of Google's token endpoint, answering as Google does: a code
 * that does not exist is `invalid_grant` for a client it knows, and `invalid_client` (401) for one it does not.
 */

const client = { clientId: "1234567890-abc.apps.googleusercontent.com", clientSecret: "GOCSPX-the-real-secret" };
const google = standInForFile(() =>
  startProviderServer((request) => {
    const form = new URLSearchParams(request.body);
    if (form.get("client_id") !== client.clientId || form.get("client_secret") !== client.clientSecret) {
      return { status: 401, body: { error: "invalid_client", error_description: "The OAuth client was not found." } };
    }
    return { status: 400, body: { error: "invalid_grant", error_description: "Malformed auth code." } };
  }),
);

const probe = (clientSecret: string) => googleClientProbe({ ...client, clientSecret, redirectUri: "https://shop.example/api/auth/callback/google", tokenUrl: `${google.url}/token` })();

describe("Google sign-in's Test connection", () => {
  it("is ok when Google knows the client and refuses only the made-up code", async () => {
    await expect(probe(client.clientSecret)).resolves.toBe("Google knows the client id and secret");
    const form = new URLSearchParams(google.requests[0]!.body);
    expect(Object.fromEntries(form)).toMatchObject({ grant_type: "authorization_code", redirect_uri: "https://shop.example/api/auth/callback/google" });
  });

  it("fails with Google's words when the client is wrong", async () => {
    await expect(probe("GOCSPX-an-old-secret")).rejects.toThrow("Google refused the shop's OAuth client (invalid_client: The OAuth client was not found.)");
  });
});
