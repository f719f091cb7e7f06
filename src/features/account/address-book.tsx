"use client";

import { MapPin, Pencil, Plus, Star, Trash2 } from "lucide-react";
import { useState } from "react";
import { useConfirm } from "@/components/confirm-dialog";
import { toast } from "@/components/toast";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { MAX_ADDRESSES, type Address } from "@/server/account/schemas";
import { AddressForm } from "./address-form";
import { useAddressCountries, useAddresses, useCreateAddress, useDeleteAddress, useSetDefaultAddress, useUpdateAddress } from "./queries";

function AddressLines({ address }: { address: Address }) {
  return (
    <address className="text-sm not-italic leading-relaxed">
      <span className="font-medium">
        {address.firstName} {address.lastName}
      </span>
      {address.companyName ? <span className="block">{address.companyName}</span> : null}
      <span className="block">
        {address.street} {address.houseNumber}
      </span>
      {address.addressLine2 ? <span className="block">{address.addressLine2}</span> : null}
      <span className="block">
        {address.postCode} {address.city}
        {address.state ? `, ${address.state}` : ""}
      </span>
      <span className="block">{address.country}</span>
      {address.phoneNumber ? <span className="block text-muted-foreground">{address.phoneNumber}</span> : null}
    </address>
  );
}

/** The customer's address book: add, edit, delete and choose the default address. */
export function AddressBook() {
  const addresses = useAddresses();
  const countries = useAddressCountries();
  const [editing, setEditing] = useState<Address | "new" | null>(null);

  const create = useCreateAddress({ onSuccess: () => { toast.success("Address added"); setEditing(null); } });
  const update = useUpdateAddress({ onSuccess: () => { toast.success("Address saved"); setEditing(null); } });
  const remove = useDeleteAddress({ onSuccess: () => toast.success("Address deleted") });
  const makeDefault = useSetDefaultAddress();
  const [confirm, confirmDialog] = useConfirm("shop");

  const current = editing === "new" ? null : editing;
  return (
    <section className="flex flex-col gap-4">
      {confirmDialog}
      <div className="flex items-end justify-between gap-4">
        <div>
          <h1 className="font-serif text-2xl font-semibold">Address book</h1>
          <p className="text-sm text-muted-foreground">Checkout offers your default address first.</p>
        </div>
        <Button onClick={() => setEditing("new")} disabled={!countries.data || (addresses.data?.length ?? 0) >= MAX_ADDRESSES} title={(addresses.data?.length ?? 0) >= MAX_ADDRESSES ? `Your address book holds ${MAX_ADDRESSES} addresses, the most it can` : undefined}>
          <Plus /> Add address
        </Button>
      </div>

      {addresses.isPending ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <Skeleton className="h-44" />
          <Skeleton className="h-44" />
        </div>
      ) : addresses.data && addresses.data.length > 0 ? (
        <ul className="grid gap-4 sm:grid-cols-2">
          {addresses.data.map((address) => (
            <li key={address.id} className="flex flex-col gap-4 rounded-xl border bg-card p-5" data-testid="address">
              <div className="flex items-start justify-between gap-2">
                <AddressLines address={address} />
                {address.isDefault ? (
                  <span className="inline-flex items-center gap-1 rounded-full bg-accent px-2.5 py-0.5 text-xs font-medium text-accent-foreground">
                    <Star className="size-3 fill-primary text-primary" aria-hidden /> Default
                  </span>
                ) : null}
              </div>
              <div className="mt-auto flex flex-wrap gap-2">
                <Button variant="outline" size="sm" onClick={() => setEditing(address)} aria-label={`Edit the address in ${address.city}`}>
                  <Pencil /> Edit
                </Button>
                {address.isDefault ? null : (
                  <Button variant="ghost" size="sm" disabled={makeDefault.isPending} onClick={() => makeDefault.mutate({ id: address.id })}>
                    Make default
                  </Button>
                )}
                <Button
                  variant="ghost"
                  size="sm"
                  className="text-destructive hover:text-destructive"
                  aria-label={`Delete the address in ${address.city}`}
                  disabled={remove.isPending}
                  onClick={async () => {
                    if (await confirm({ title: `Delete the address in ${address.city}?`, description: "Orders already sent there keep it.", confirmLabel: "Delete", destructive: true })) remove.mutate({ id: address.id });
                  }}
                >
                  <Trash2 /> Delete
                </Button>
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed p-10 text-center">
          <MapPin className="size-8 text-primary" aria-hidden />
          <p className="font-serif text-lg font-semibold">No addresses yet</p>
          <p className="max-w-sm text-sm text-muted-foreground">Save where your parcels should go, and checkout fills it in for you.</p>
        </div>
      )}

      <Dialog open={editing !== null} onOpenChange={(open) => (open ? null : setEditing(null))}>
        <DialogContent className="lg:max-w-2xl">
          <DialogHeader>
            <DialogTitle>{current ? "Edit address" : "New address"}</DialogTitle>
            <DialogDescription>Fields with an asterisk are required.</DialogDescription>
          </DialogHeader>
          {editing !== null && countries.data ? (
            <AddressForm
              key={current?.id ?? "new"}
              address={current}
              countries={countries.data}
              saving={create.isPending || update.isPending}
              onCancel={() => setEditing(null)}
              onSubmit={(values) => (current ? update.mutate({ id: current.id, address: values }) : create.mutate(values))}
            />
          ) : null}
        </DialogContent>
      </Dialog>
    </section>
  );
}
