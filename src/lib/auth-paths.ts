/** Where a visitor signs in; pages that need a session redirect here with `callbackUrl` and `error=SessionRequired`. */
export const SIGN_IN_PATH = "/sign-in";

export function signInRedirect(callbackUrl: string): string {
  return `${SIGN_IN_PATH}?${new URLSearchParams({ callbackUrl, error: "SessionRequired" }).toString()}`;
}
