"use client";

import { MapPin, UserRound, X } from "lucide-react";
import Link from "next/link";
import { AdminBadge } from "@/components/ui/admin-badge";
import { Button } from "@/components/ui/button";
import type { Address, CustomerMatch } from "@/server/account/schemas";
import { customerPath } from "../account/customer-badges";
import { SearchField, useSearchTerm } from "../kit/forms/search-to-add";
import { useCustomerAddresses, useCustomerSearch } from "./manual-order-queries";

/**
 * Who the order is for: a customer found by name or e-mail (the order then appears in their order history, and
 * their address book is offered), or nobody with an account, a walk-in or phone customer known only by the address.
 */
export function CustomerPicker({
  customer,
  onChoose,
  onUseAddress,
}: {
  customer: CustomerMatch | null;
  onChoose: (customer: CustomerMatch | null) => void;
  onUseAddress: (address: Address) => void;
}) {
  const search = useSearchTerm();
  const matches = useCustomerSearch(customer ? "" : search.term);
  const addresses = useCustomerAddresses(customer?.id ?? null);

  if (customer) {
    return (
      <div className="space-y-3">
        <div className="flex items-center gap-3 rounded-md border bg-accent/30 px-3 py-2">
          <UserRound className="size-5 shrink-0 text-brass" />
          <div className="min-w-0 flex-1">
            {/* A new tab: the order form keeps what is typed. */}
            <Link href={customerPath(customer.id)} target="_blank" className="block truncate text-sm font-medium hover:text-primary hover:underline">
              {customer.name ?? customer.email}
            </Link>
            <p className="truncate text-xs text-muted-foreground">{customer.email}</p>
          </div>
          <Button type="button" variant="ghost" size="sm" onClick={() => onChoose(null)} aria-label="Choose another customer">
            <X /> Change
          </Button>
        </div>
        {addresses.data?.length ? (
          <div className="space-y-2">
            <p className="text-xs font-medium text-muted-foreground">From the address book</p>
            <ul className="grid gap-2 sm:grid-cols-2">
              {addresses.data.map((address) => (
                <li key={address.id}>
                  <button
                    type="button"
                    onClick={() => onUseAddress(address)}
                    className="flex w-full gap-2 rounded-md border px-3 py-2 text-left text-xs leading-relaxed transition-colors hover:border-primary hover:bg-accent/40"
                  >
                    <MapPin className="mt-0.5 size-3.5 shrink-0 text-brass" />
                    <span className="min-w-0">
                      <span className="block font-medium text-foreground">
                        {address.firstName} {address.lastName} {address.isDefault ? <AdminBadge tone="brass">Default</AdminBadge> : null}
                      </span>
                      <span className="block text-muted-foreground">
                        {address.street} {address.houseNumber}, {address.postCode} {address.city}, {address.country}
                      </span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ) : addresses.data ? (
          <p className="text-xs text-muted-foreground">No saved addresses: fill in the address below.</p>
        ) : null}
      </div>
    );
  }

  const results = search.found ? matches.data : undefined;
  return (
    <div className="space-y-2">
      <SearchField label="Search customers" placeholder="Search customers by name or e-mail" value={search.text} onChange={search.setText} busy={matches.isFetching} />
      {results ? (
        results.length ? (
          <ul className="divide-y rounded-md border" aria-label="Customers found">
            {results.map((match) => (
              <li key={match.id}>
                <button type="button" onClick={() => onChoose(match)} className="flex w-full items-center gap-2 px-3 py-2 text-left text-sm hover:bg-accent/40">
                  <UserRound className="size-4 shrink-0 text-muted-foreground" />
                  <span className="min-w-0 truncate">
                    <span className="font-medium">{match.name ?? "—"}</span> <span className="text-muted-foreground">{match.email}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-xs text-muted-foreground">No customer matches “{search.term.trim()}”. Leave the order without an account, or search again.</p>
        )
      ) : (
        <p className="text-xs text-muted-foreground">Without a customer the order has no account: it is kept by its address and e-mail only.</p>
      )}
    </div>
  );
}
