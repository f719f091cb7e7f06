"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";

const HOUR_MS = 60 * 60_000;

/** The customer's addresses; `enabled` is false for a guest, who has none. */
export function useAddresses({ enabled = true }: { enabled?: boolean } = {}) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.shared.account.addresses.queryOptions(), enabled });
}

/** The countries an address may be in; they change with a deploy, not during a visit. */
export function useAddressCountries() {
  const trpc = useTRPC();
  return useQuery(trpc.shared.account.countries.queryOptions(undefined, { staleTime: HOUR_MS }));
}

type Done = { onSuccess: () => void };

/** Adding or editing an address refetches the book; deleting or choosing the default answers with the new book. */
export function useCreateAddress({ onSuccess }: Done) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.shared.account.createAddress.mutationOptions({
      onSuccess: () => {
        onSuccess();
        void queryClient.invalidateQueries({ queryKey: trpc.shared.account.addresses.queryKey() });
      },
    }),
  );
}

export function useUpdateAddress({ onSuccess }: Done) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.shared.account.updateAddress.mutationOptions({
      onSuccess: () => {
        onSuccess();
        void queryClient.invalidateQueries({ queryKey: trpc.shared.account.addresses.queryKey() });
      },
    }),
  );
}

export function useDeleteAddress({ onSuccess }: Done) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.shared.account.deleteAddress.mutationOptions({
      onSuccess: (list) => {
        onSuccess();
        queryClient.setQueryData(trpc.shared.account.addresses.queryKey(), list);
      },
    }),
  );
}

export function useSetDefaultAddress() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.shared.account.setDefaultAddress.mutationOptions({
      onSuccess: (list) => queryClient.setQueryData(trpc.shared.account.addresses.queryKey(), list),
    }),
  );
}

export function useUpdateProfile({ onSuccess }: { onSuccess: () => Promise<void> }) {
  const trpc = useTRPC();
  return useMutation(trpc.shared.account.updateProfile.mutationOptions({ onSuccess }));
}
