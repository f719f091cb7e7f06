"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
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

/** What the signed-in person has for a second factor, and whether this session still owes it. */
export function useSecondFactorStatus() {
  const trpc = useTRPC();
  return useQuery(trpc.shared.secondFactor.status.queryOptions(undefined, { staleTime: 0, refetchOnWindowFocus: false }));
}

/** The second factor's mutations; each refreshes the status once it went through. */
export function useSecondFactorActions() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.shared.secondFactor.status.queryKey() });
  // The card shows what went wrong beside the code or button, in the shop's words: no toast on top.
  const quiet = { errorToast: false as const };
  const options = { onSuccess: refresh, meta: quiet };
  return {
    totpStart: useMutation(trpc.shared.secondFactor.totpStart.mutationOptions({ meta: quiet })),
    totpConfirm: useMutation(trpc.shared.secondFactor.totpConfirm.mutationOptions(options)),
    totpVerify: useMutation(trpc.shared.secondFactor.totpVerify.mutationOptions(options)),
    recoveryCodeVerify: useMutation(trpc.shared.secondFactor.recoveryCodeVerify.mutationOptions(options)),
    passkeyRegistrationOptions: useMutation(trpc.shared.secondFactor.passkeyRegistrationOptions.mutationOptions({ meta: quiet })),
    passkeyRegister: useMutation(trpc.shared.secondFactor.passkeyRegister.mutationOptions(options)),
    passkeyOptions: useMutation(trpc.shared.secondFactor.passkeyOptions.mutationOptions({ meta: quiet })),
    passkeyVerify: useMutation(trpc.shared.secondFactor.passkeyVerify.mutationOptions(options)),
    passkeyRemove: useMutation(trpc.shared.secondFactor.passkeyRemove.mutationOptions(options)),
    totpRemove: useMutation(trpc.shared.secondFactor.totpRemove.mutationOptions(options)),
    recoveryCodesRenew: useMutation(trpc.shared.secondFactor.recoveryCodesRenew.mutationOptions(options)),
  };
}
