"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, loggerLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import type { AppRouter } from "@/server/root";
import { MAX_BATCH_SIZE } from "./limits";
import { transformer } from "./transformer";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** Data cache defaults of SPEC section 9: 5 minutes garbage collection, 3 retries with a delay capped at 30 s. */
function makeQueryClient() {
  return new QueryClient({
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

/** The visitor token kept under `token` (SPEC section 4); sent with every call. */
function storedToken(): string | null {
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
