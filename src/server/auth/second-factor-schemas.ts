import { z } from "zod";

/** A code from an authenticator app: six digits, spaces allowed as apps show them. */
export const totpCodeInput = z.object({ code: z.string().trim().regex(/^\d{3}\s?\d{3}$/, "Type the six digits your app shows") });
/** A recovery code as it was shown (ABCDE-FGHJK), in any case, with or without its dash. */
export const recoveryCodeInput = z.object({ code: z.string().trim().min(8).max(20) });

const base64url = z.string().regex(/^[A-Za-z0-9_-]*$/).max(16_384);
/** The extensions' results a browser reports (WebAuthn level 3); the shop asks for none, so none is used. */
const extensionResults = z.object({ appid: z.boolean().optional(), credProps: z.object({ rk: z.boolean().optional() }).optional(), hmacCreateSecret: z.boolean().optional() });

/** What @simplewebauthn/browser's startRegistration answers; checked in full by the server library. */
export const registrationResponseInput = z.object({
  id: base64url.min(1),
  rawId: base64url.min(1),
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url,
    transports: z.array(z.string().max(20)).max(8).optional(),
    authenticatorData: base64url.optional(),
    publicKey: base64url.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
  }),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults: extensionResults,
});

/** What @simplewebauthn/browser's startAuthentication answers. */
export const authenticationResponseInput = z.object({
  id: base64url.min(1),
  rawId: base64url.min(1),
  type: z.literal("public-key"),
  response: z.object({ clientDataJSON: base64url, authenticatorData: base64url, signature: base64url, userHandle: base64url.optional() }),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults: extensionResults,
});

const challengeId = z.string().regex(/^[A-Za-z0-9_-]{10,40}$/);

export const passkeyRegistrationInput = z.object({
  challengeId,
  response: registrationResponseInput,
  /** What its owner calls it, to tell it from others on the security page. */
  name: z.string().trim().min(1, "Give the passkey a name").max(60),
});
export const passkeyAuthenticationInput = z.object({ challengeId, response: authenticationResponseInput });
export type PasskeyRegistrationInput = z.infer<typeof passkeyRegistrationInput>;
export type PasskeyAuthenticationInput = z.infer<typeof passkeyAuthenticationInput>;
export const passkeyIdInput = z.object({ id: base64url.min(1).max(1024) });

export type SecondFactorStatus = {
  email: string;
  /** True while the session still owes its second factor (staff signed in by e-mail link). */
  pending: boolean;
  staff: boolean;
  passkeys: { id: string; name: string; createdAt: Date; lastUsedAt: Date | null; synced: boolean }[];
  totp: boolean;
  recoveryCodesLeft: number;
  /** The demo admin's current code, on the sandbox only: see demoTotpCode. */
  demoCode: string | null;
};

/** What an authenticator app needs to be set up: the QR code (SVG) of the otpauth address, and the secret to type in. */
export type TotpSetup = { qrSvg: string; secret: string; otpauthUri: string };
