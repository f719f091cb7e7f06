"use client";

import { useSyncExternalStore } from "react";
import { browserSupportsWebAuthn, startAuthentication, startRegistration, WebAuthnError } from "@simplewebauthn/browser";
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from "@simplewebauthn/browser";

/** The browser's passkey prompts, with what went wrong in words a person can act on. */

export const passkeysSupported = () => typeof window !== "undefined" && browserSupportsWebAuthn();

const subscribeNever = () => () => {};
/**
 * Whether this browser can use passkeys, as a hook: false while rendered on the server and on the first render in the
 * browser, so that both agree, then the browser's answer.
 */
export function usePasskeysSupported(): boolean {
  return useSyncExternalStore(subscribeNever, passkeysSupported, () => false);
}

/** A person closing the browser's prompt is not an error to shout about: null then. */
function cancelled(error: unknown): boolean {
  return error instanceof WebAuthnError ? error.code === "ERROR_CEREMONY_ABORTED" || error.name === "NotAllowedError" : error instanceof DOMException && error.name === "NotAllowedError";
}

export async function promptForNewPasskey(optionsJSON: PublicKeyCredentialCreationOptionsJSON): Promise<RegistrationResponseJSON | null> {
  try {
    return await startRegistration({ optionsJSON });
  } catch (error) {
    if (cancelled(error)) return null;
    if (error instanceof WebAuthnError && error.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") throw new Error("This device holds a passkey for your account already.");
    throw error;
  }
}

export async function promptForPasskey(optionsJSON: PublicKeyCredentialRequestOptionsJSON): Promise<AuthenticationResponseJSON | null> {
  try {
    return await startAuthentication({ optionsJSON });
  } catch (error) {
    if (cancelled(error)) return null;
    throw error;
  }
}

/** A name for a new passkey that says where it was made, from the browser's own description of the device. */
export function suggestedPasskeyName(): string {
  const agent = typeof navigator === "undefined" ? "" : navigator.userAgent;
  const device = /iPhone/.test(agent) ? "iPhone" : /iPad/.test(agent) ? "iPad" : /Android/.test(agent) ? "Android phone" : /Mac/.test(agent) ? "Mac" : /Windows/.test(agent) ? "Windows PC" : /Linux/.test(agent) ? "Linux computer" : "This device";
  const browser = /Edg\//.test(agent) ? "Edge" : /Firefox\//.test(agent) ? "Firefox" : /Chrome\//.test(agent) ? "Chrome" : /Safari\//.test(agent) ? "Safari" : null;
  return browser ? `${device}, ${browser}` : device;
}
