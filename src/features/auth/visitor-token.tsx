"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTRPC } from "@/lib/trpc/client";
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
 * Keeps the visitor token fresh (SPEC section 4) and, once per browser, asks for the visitor's country from their
 * position. Renders nothing.
 */
export function VisitorTokenManager() {
  const trpc = useTRPC();
  const { mutateAsync: manageToken } = useMutation(trpc.shared.token.manage.mutationOptions());
  const { mutateAsync: lookUpCountry } = useMutation(trpc.shared.maps.getCountryFromIpAddress.mutationOptions());

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
    if (!("geolocation" in navigator) || window.localStorage.getItem(COUNTRY_KEY)) return;
    navigator.geolocation.getCurrentPosition(
      (position) => {
        lookUpCountry({ lat: position.coords.latitude, lng: position.coords.longitude, accuracy: position.coords.accuracy })
          .then(({ countryCode }) => {
            if (countryCode) window.localStorage.setItem(COUNTRY_KEY, countryCode);
          })
          // SPEC section 8: a failed country lookup is logged to the console only.
          .catch((error: unknown) => console.error("Country lookup failed", error));
      },
      (error) => console.error("Country lookup failed", error.message),
      { maximumAge: 24 * 60 * 60 * 1000, timeout: 10_000 },
    );
  }, [lookUpCountry]);

  return null;
}
