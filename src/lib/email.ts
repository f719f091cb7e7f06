import { z } from "zod";

/**
 * An e-mail address a sign-in link can go to, for the sign-in form and the server alike. 254 characters is the
 * most a mail server accepts in a forward path (RFC 5321), and keeps stored addresses bounded (SECURITY-REVIEW L11).
 */
export const signInEmailAddress = z.email("Enter a valid e-mail address, like name@example.com").max(254, "An e-mail address has at most 254 characters");
