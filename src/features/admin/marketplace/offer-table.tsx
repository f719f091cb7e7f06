"use client";

import { useConfirm } from "@/components/confirm-dialog";
import { ArrowUpRight, CircleCheck, CircleX, ExternalLink, EyeOff, PenLine, RefreshCw, Send, X } from "lucide-react";
import Link from "next/link";
import { useMemo, useState } from "react";
import { toast } from "@/components/toast";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminCheckbox, AdminKbd } from "@/components/ui/admin-form-controls";
import { AdminTableCell } from "@/components/ui/admin-table";
import { Button } from "@/components/ui/button";
import { marketplaceOfferStatuses } from "@/lib/enums";
import { listPageFromAddress } from "@/lib/list-page";
import { cn } from "@/lib/utils";
import type { MarketplaceOverview, OfferActionOutcome, OfferListInput, OfferRow } from "@/server/marketplace/schemas";
import { formatEuro } from "@/lib/money";
import { ChannelPrice } from "./channel-price-cell";
import { formatCount, formatDateTime } from "../kit/format";
import { ClearFiltersButton, FilterSelect, type ListColumn } from "../kit/list-table";
import { SelectableList, SelectionToolbar, useRowSelection } from "../kit/selectable-list";
import { ListSearchBox } from "../kit/list-search-box";
import { useListAddress } from "../kit/use-list-address";
import { BulkUpdatePanel } from "./bulk-update-panel";
import { plural } from "@/lib/plural";
import { listingUrl, offerStatusLabels, offerStatusTones, type OfferStatusChoice } from "./labels";
import { Attention, BlockedBadge } from "./offer-attention";
import { useEbayOffers, useMarketplaceOverview, useOfferActions } from "./queries";

const statusChoices = ["NONE", ...marketplaceOfferStatuses] as const;
const filterKeys = ["status", "failing", "blocked", "stock"] as const;

/** The table's state lives in the address, so a filtered page can be reloaded, bookmarked and gone back to. */
function readQuery(search: URLSearchParams): OfferListInput {
  const status = search.get("status");
  const stock = search.get("stock");
  return {
    search: search.get("search")?.trim() || undefined,
    status: (statusChoices as readonly string[]).includes(status ?? "") ? (status as OfferStatusChoice) : undefined,
    failing: search.get("failing") === "1" ? true : undefined,
    blocked: search.get("blocked") === "1" ? true : undefined,
    inStock: stock === "in" ? true : stock === "out" ? false : undefined,
    ...listPageFromAddress(search),
  };
}

type ActionName = "publish" | "revise" | "withdraw" | "republish";

const actionWords: Record<ActionName, { button: string; done: string; icon: typeof Send }> = {
  publish: { button: "Publish", done: "published", icon: Send },
  revise: { button: "Revise", done: "revised", icon: PenLine },
  withdraw: { button: "Withdraw", done: "withdrawn", icon: EyeOff },
  republish: { button: "Republish", done: "republished", icon: RefreshCw },
};

/** What an action did, as one toast; the panel under the toolbar lists each product. */
function announce(action: ActionName, outcome: OfferActionOutcome) {
  const done = `${plural(outcome.succeeded, "offer")} ${actionWords[action].done}`;
  if (outcome.failed === 0) toast.success(done);
  else if (outcome.succeeded === 0) toast.error(`Nothing ${actionWords[action].done}`, { description: `${plural(outcome.failed, "product")} refused: the list under the buttons says why.` });
  else toast.warning(`${done}; ${formatCount(outcome.failed)} refused`, { description: "The list under the buttons says why." });
}

function ListingLink({ row, kind }: { row: OfferRow; kind: MarketplaceOverview["kind"] | undefined }) {
  const listingId = row.offer?.listingId;
  if (!listingId || !row.offer) return <span className="text-muted-foreground">—</span>;
  if (!kind) return <span className="font-mono text-xs">{listingId}</span>;
  const live = kind === "live";
  return (
    <a
      href={listingUrl(kind, row.offer.marketplaceId, listingId)}
      target="_blank"
      rel="noreferrer"
      className="inline-flex items-center gap-1 font-mono text-xs hover:text-primary hover:underline"
      title={live ? "Open the listing on eBay" : "Open the listing on the sandbox marketplace"}
    >
      {listingId}
      {live ? <ExternalLink className="size-3" aria-hidden="true" /> : <ArrowUpRight className="size-3" aria-hidden="true" />}
    </a>
  );
}

/** The last quantity and price the marketplace got, and when. */
function Pushed({ row }: { row: OfferRow }) {
  const offer = row.offer;
  if (!offer || offer.pushedQuantity === null) return <span className="text-muted-foreground">—</span>;
  const behind = offer.status === "PUBLISHED" && offer.pushedQuantity !== row.stock;
  // The price only when the marketplace has another than the shop's eBay price: a push or revise brings it in line.
  const otherPrice = offer.pushedPrice && !offer.pushedPrice.equals(row.channelPrice) ? offer.pushedPrice : null;
  return (
    <div className="text-xs whitespace-nowrap">
      <p className={cn("font-medium", behind && "text-amber-700 dark:text-amber-400")} title={behind ? "Differs from the shop's stock: a push is on its way or failed" : undefined}>
        {formatCount(offer.pushedQuantity)} {offer.pushedQuantity === 1 ? "pc" : "pcs"}
        {otherPrice ? <span className="font-normal text-amber-700 dark:text-amber-400" title="The marketplace's price differs from the shop's eBay price: revise the offer"> · {formatEuro(otherPrice)}</span> : null}
      </p>
      {offer.lastPushedAt ? <p className="text-[11px] text-muted-foreground">{formatDateTime(offer.lastPushedAt)}</p> : null}
    </div>
  );
}

function StatusBadge({ row }: { row: OfferRow }) {
  const status: OfferStatusChoice = row.offer?.status ?? "NONE";
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <AdminBadge tone={offerStatusTones[status]}>{offerStatusLabels[status]}</AdminBadge>
      <BlockedBadge row={row} />
    </span>
  );
}

/** A product's card on a phone, where the table does not fit: its offer without sideways scrolling. */
function OfferCard({ row, kind }: { row: OfferRow; kind: MarketplaceOverview["kind"] | undefined }) {
  return (
    <div className="min-w-0 flex-1 space-y-1">
      <div className="flex items-start justify-between gap-2">
        <Link href={`/admin/products/edit?id=${row.productId}`} className="min-w-0 truncate font-medium hover:text-primary hover:underline">
          {row.name}
        </Link>
        <StatusBadge row={row} />
      </div>
      <div className="flex items-center justify-between gap-2 text-sm">
        <span className="text-xs text-muted-foreground">
          #{row.productId} · {row.stock === 0 ? <span className="text-destructive">sold out</span> : `${formatCount(row.stock)} in stock`}
        </span>
        <ChannelPrice row={row} />
      </div>
      {row.offer?.listingId ? (
        <div className="flex items-center justify-between gap-2">
          <ListingLink row={row} kind={kind} />
          <Pushed row={row} />
        </div>
      ) : null}
      <Attention row={row} />
    </div>
  );
}

function OutcomePanel({ action, outcome, onClose }: { action: ActionName; outcome: OfferActionOutcome; onClose: () => void }) {
  // Refusals first: they are what staff act on.
  const results = [...outcome.results].sort((a, b) => Number(a.ok) - Number(b.ok));
  return (
    <section role="status" aria-label="What the action did" className="rounded-lg border bg-card">
      <header className="flex items-center gap-2 border-b px-3 py-2">
        <p className="text-sm font-medium">
          {actionWords[action].button}: {formatCount(outcome.succeeded)} {actionWords[action].done}
          {outcome.failed ? <span className="text-destructive"> · {formatCount(outcome.failed)} refused</span> : null}
        </p>
        <Button size="icon" variant="ghost" className="ml-auto size-7" aria-label="Close" onClick={onClose}>
          <X />
        </Button>
      </header>
      <ul className="max-h-56 divide-y overflow-y-auto text-sm">
        {results.map((result) => (
          <li key={result.productId} className="flex items-start gap-2 px-3 py-1.5">
            {result.ok ? (
              <CircleCheck className="mt-0.5 size-4 shrink-0 text-emerald-700 dark:text-emerald-400" aria-label="Done" />
            ) : (
              <CircleX className="mt-0.5 size-4 shrink-0 text-destructive" aria-label="Refused" />
            )}
            <div className="min-w-0 flex-1">
              <Link href={`/admin/products/edit?id=${result.productId}`} className="font-medium hover:text-primary hover:underline">
                {result.name}
              </Link>
              <span className="ml-1.5 text-[11px] text-muted-foreground">#{result.productId}</span>
              {result.message ? <p className={cn("text-xs", result.ok ? "text-muted-foreground" : "text-destructive")}>{result.message}</p> : null}
            </div>
            {result.listingId ? <span className="shrink-0 font-mono text-xs text-muted-foreground">{result.listingId}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function OfferTable() {
  const { router, params, update, goToPage } = useListAddress();
  const query = useMemo(() => readQuery(new URLSearchParams(params.toString())), [params]);
  const offers = useEbayOffers(query);
  const overview = useMarketplaceOverview();
  const actions = useOfferActions();
  const [lastOutcome, setLastOutcome] = useState<{ action: ActionName; outcome: OfferActionOutcome } | null>(null);

  const rows = offers.data?.rows ?? [];
  const selection = useRowSelection(rows, (row) => row.productId, params.toString());
  const pending = Object.values(actions).some((mutation) => mutation.isPending);
  const running = (Object.keys(actions) as ActionName[]).find((name) => actions[name].isPending);

  const [confirm, confirmDialog] = useConfirm();
  const run = async (action: ActionName) => {
    const { chosen } = selection;
    if (
      action === "withdraw" &&
      !(await confirm({
        title: `Withdraw ${plural(chosen.length, "offer")} from the marketplace?`,
        description: `Buyers can no longer find ${chosen.length === 1 ? "it" : "them"} until republished.`,
        confirmLabel: "Withdraw",
        destructive: true,
      }))
    )
      return;
    actions[action].mutate(
      { productIds: chosen },
      {
        onSuccess: (outcome) => {
          setLastOutcome({ action, outcome });
          announce(action, outcome);
          // What went through leaves the selection; what was refused stays picked, to fix and try again.
          selection.pick(outcome.results.filter((result) => !result.ok).map((result) => result.productId));
        },
      },
    );
  };

  const columns: ListColumn[] = [
    { label: "Product" },
    { label: "Price · eBay", className: "text-right" },
    { label: "Stock", className: "text-right" },
    { label: "Offer" },
    { label: "Listing" },
    { label: "Last pushed" },
    { label: "Needs attention" },
  ];

  const activeFilters = filterKeys.filter((key) => params.has(key));
  const total = offers.data?.total ?? 0;
  const empty =
    offers.data && rows.length === 0 ? (
      <>
        No products{query.search ? ` match “${query.search}”` : ""}
        {activeFilters.length ? " with these filters" : ""}. {activeFilters.length || query.search ? "Try fewer words or clear the filters." : "Add products first, then offer them here."}
      </>
    ) : null;

  return (
    <div className="space-y-3">
      {confirmDialog}
      <BulkUpdatePanel />

      <div className="flex items-center gap-2">
        <ListSearchBox label="Search products" placeholder="Name, SKU or product id" currentSearch={query.search} update={update} className="min-w-0 flex-1 sm:max-w-sm" />
        <p className="hidden text-xs text-muted-foreground lg:block">
          <AdminKbd>/</AdminKbd> search · <AdminKbd>[</AdminKbd> <AdminKbd>]</AdminKbd> pages
        </p>
        <Button asChild size="sm" variant="outline" className="ml-auto h-9 shrink-0">
          <Link href="/admin/ebay">Overview</Link>
        </Button>
      </div>
      <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap sm:items-center">
        <FilterSelect label="Offer status" param="status" all="Any offer status" className="sm:w-44" options={statusChoices.map((value) => ({ value, label: offerStatusLabels[value] }))} params={params} update={update} />
        <FilterSelect
          label="Stock"
          param="stock"
          all="Any stock"
          className="sm:w-36"
          options={[
            { value: "in", label: "In stock" },
            { value: "out", label: "Sold out" },
          ]}
          params={params}
          update={update}
        />
        <label className="flex h-9 items-center gap-2 rounded-md border bg-card px-3 text-sm">
          <AdminCheckbox checked={query.failing === true} onCheckedChange={(on) => update({ failing: on === true ? "1" : undefined })} />
          Failing only
        </label>
        <label className="flex h-9 items-center gap-2 rounded-md border bg-card px-3 text-sm">
          <AdminCheckbox checked={query.blocked === true} onCheckedChange={(on) => update({ blocked: on === true ? "1" : undefined })} />
          Blocked only
        </label>
        <ClearFiltersButton active={activeFilters} update={update} />
      </div>

      <SelectionToolbar label="Selected products" selection={selection}>
        {(Object.keys(actionWords) as ActionName[]).map((name) => {
          const Icon = actionWords[name].icon;
          return (
            <Button key={name} size="sm" variant={name === "publish" ? "default" : "outline"} disabled={pending} onClick={() => void run(name)}>
              <Icon className={cn(running === name && "animate-pulse")} /> {actionWords[name].button}
            </Button>
          );
        })}
      </SelectionToolbar>
      {running ? <p className="text-xs text-muted-foreground">Talking to the marketplace: each product is written on its own, this can take a few seconds…</p> : null}

      {lastOutcome ? <OutcomePanel action={lastOutcome.action} outcome={lastOutcome.outcome} onClose={() => setLastOutcome(null)} /> : null}

      <SelectableList
        label="Products and their offers"
        selectAllLabel="Select every product on this page"
        summary={<span data-testid="offer-count">{offers.data ? plural(total, "product") : offers.isError ? "Could not load" : "Loading…"}</span>}
        pages={{ page: query.page ?? 1, totalPages: Math.max(1, Math.ceil(total / (query.pageSize ?? 50))), pageSize: query.pageSize, onPage: goToPage, update }}
        rows={rows}
        keyOf={(row) => row.productId}
        nameOf={(row) => row.name}
        selection={selection}
        columns={columns}
        loading={offers.isPending && !offers.isError}
        dimmed={offers.isPlaceholderData}
        empty={offers.isError ? <span className="text-destructive">The offers could not be loaded: {offers.error.message}</span> : empty}
        tableClassName="max-h-[calc(100dvh-20rem)] min-h-64"
        onOpen={(row) => router.push(`/admin/products/edit?id=${row.productId}`)}
        card={(row) => <OfferCard row={row} kind={overview.data?.kind} />}
        cells={(row) => (
          <>
            <AdminTableCell>
              <div className="max-w-64 min-w-40">
                <Link href={`/admin/products/edit?id=${row.productId}`} className="block truncate font-medium hover:text-primary hover:underline" title={row.name}>
                  {row.name}
                </Link>
                <p className="text-[11px] text-muted-foreground">
                  #{row.productId}
                  {row.offer ? <span className="font-mono"> · {row.offer.sku}</span> : null}
                </p>
              </div>
            </AdminTableCell>
            <AdminTableCell>
              <ChannelPrice row={row} />
            </AdminTableCell>
            <AdminTableCell className="text-right">{row.stock === 0 ? <AdminBadge tone="danger">Sold out</AdminBadge> : <span className="font-medium">{formatCount(row.stock)}</span>}</AdminTableCell>
            <AdminTableCell>
              <StatusBadge row={row} />
            </AdminTableCell>
            <AdminTableCell className="whitespace-nowrap">
              <ListingLink row={row} kind={overview.data?.kind} />
            </AdminTableCell>
            <AdminTableCell>
              <Pushed row={row} />
            </AdminTableCell>
            <AdminTableCell>
              <Attention row={row} />
            </AdminTableCell>
          </>
        )}
      />
    </div>
  );
}
