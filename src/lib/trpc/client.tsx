"use client";

import { MutationCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, loggerLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import { toast } from "@/components/toast";
import type { AppRouter } from "@/server/root";
import { MAX_BATCH_SIZE } from "./limits";
import { transformer } from "./transformer";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/**
 * What a failed mutation shows (SPEC section 8): by default a toast titled "Error" with the server's message; a
 * domain names its own title (and a toast id, so that its toasts replace each other), or `false` when it tells the
 * user itself or fails silently.
 */
export type MutationErrorToast = false | { title?: string; id?: string };

declare module "@tanstack/react-query" {
  interface Register {
    mutationMeta: { errorToast?: MutationErrorToast };
  }
}

export const UNKNOWN_ERROR = "Unknown error occurred";

export function errorToastOf(error: unknown, errorToast: MutationErrorToast | undefined) {
  if (errorToast === false) return null;
  const description = (error instanceof Error && error.message) || UNKNOWN_ERROR;
  return { title: errorToast?.title ?? "Error", description, id: errorToast?.id };
}

/** Shows SPEC section 8's toast for an error a mutation could not hand to the cache (e.g. an upload). */
export function showErrorToast(error: unknown, errorToast?: MutationErrorToast) {
  const shown = errorToastOf(error, errorToast);
  if (shown) toast.error(shown.title, { description: shown.description, ...(shown.id ? { id: shown.id } : {}) });
}

/** Data cache defaults of SPEC section 9: 5 minutes garbage collection, 3 retries with a delay capped at 30 s. */
export function makeQueryClient() {
  return new QueryClient({
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => showErrorToast(error, mutation.meta?.errorToast),
    }),
    defaultOptions: {
      queries: {
        gcTime: 5 * 60 * 1000,
        staleTime: 30 * 1000,
        retry: 3,
        retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 30_000),
      },
    },
  });
}

/** The visitor token kept under `token` (SPEC section 4); sent with every call, and with a sign-in e-mail request. */
export function storedToken(): string | null {
  try {
    return window.localStorage.getItem("token");
  } catch {
    return null;
  }
}

export function ApiProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        // Failed calls are logged on the client (SPEC section 7).
        loggerLink({ enabled: (op) => op.direction === "down" && op.result instanceof Error }),
        httpBatchLink({
          url: "/api/trpc",
          maxItems: MAX_BATCH_SIZE,
          transformer,
          headers() {
            const token = storedToken();
            return token ? { "x-token": token } : {};
          },
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
