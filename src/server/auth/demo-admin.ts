/**
 * The demo admin's authenticator secret (base32), published in the README as the demo accounts' addresses are: the
 * demo shop only (the seed gives it to admin@example.com, and the seed is refused in production), so that a first
 * look at the back office is not blocked, and shows how staff confirm their sign-in.
 */
export const DEMO_ADMIN_TOTP_SECRET = "BALANCEANDCROWNDEMOADMINSECRETXY";
