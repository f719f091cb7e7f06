/** What the sign-in page says for each `error` Auth.js (or the rate limit) sends it. */
export function signInErrorMessage(error: string | undefined): string | null {
  switch (error) {
    case undefined:
    case "":
      return null;
    case "SessionRequired":
      return "Please sign in to see that page.";
    case "EmailSignin":
      return "We cannot send a sign-in link to that address. Check it for typing errors and try again.";
    case "EmailRateLimit":
      return "We have sent several sign-in e-mails to this address or from this network in a short time. Please use the latest link, or wait a few minutes and try again.";
    case "Verification":
      return "That sign-in link has expired or was already used. Ask for a new one below.";
    case "OAuthAccountNotLinked":
      return "This e-mail address already has an account with another sign-in method. Sign in by e-mail link first.";
    case "AccessDenied":
      return "That sign-in was refused. If you signed in with Google, make sure your Google address is verified.";
    default:
      return "Something went wrong while signing in, please try again later";
  }
}
