"use client";

import { useEffect } from "react";
import { useManageVisitorToken } from "./queries";
import { startTokenLifecycle } from "./token-lifecycle";

const TOKEN_KEY = "token";
const COUNTRY_KEY = "countryCode";

/** The token in memory; local storage (read by the API client for `x-token`) keeps it across reloads. */
let tokenInMemory: string | null = null;

function readToken(): string | null {
  if (tokenInMemory) return tokenInMemory;
  try {
    tokenInMemory = window.localStorage.getItem(TOKEN_KEY);
  } catch {
    tokenInMemory = null;
  }
  return tokenInMemory;
}

function writeToken(token: string) {
  tokenInMemory = token;
  try {
    window.localStorage.setItem(TOKEN_KEY, token);
  } catch {
    // Private mode without storage: the token lives in memory for this page.
  }
}

/**
 * Keeps the visitor token fresh (SPEC section 4) and, once per browser, keeps the visitor's country, which the
 * server read from the request, so the browser is never asked for its position. Renders nothing.
 */
export default function VisitorTokenManager({ country }: { country: string | null }) {
  const { mutateAsync: manageToken } = useManageVisitorToken();

  useEffect(
    () =>
      startTokenLifecycle({
        read: readToken,
        write: writeToken,
        refresh: (current) => manageToken({ token: current }),
        onError: (error) => console.error("Could not refresh the visitor token", error),
      }),
    [manageToken],
  );

  useEffect(() => {
    try {
      if (country && !window.localStorage.getItem(COUNTRY_KEY)) window.localStorage.setItem(COUNTRY_KEY, country);
    } catch {
      // Without storage there is nowhere to keep it; forms simply start without a country.
    }
  }, [country]);

  return null;
}
