"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { getProviders } from "next-auth/react";
import { useTRPC } from "@/lib/trpc/client";

/** The sign-in methods the server offers; fixed for the life of the page. */
export function useSignInProviders() {
  return useQuery({ queryKey: ["auth", "providers"], queryFn: () => getProviders(), staleTime: Infinity });
}

/** Issues or renews the visitor token; a failure is only logged, the visitor sees nothing (SPEC section 4). */
export function useManageVisitorToken() {
  const trpc = useTRPC();
  return useMutation({ ...trpc.shared.token.manage.mutationOptions(), meta: { errorToast: false } });
}
