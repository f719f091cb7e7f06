"use client";

import * as Dialog from "@radix-ui/react-dialog";
import { CheckCheck, Search } from "lucide-react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminSheetContent } from "@/components/ui/admin-dialog";
import { AdminInput, AdminSelect } from "@/components/ui/admin-form-controls";
import { AdminTableCell, AdminTableRow } from "@/components/ui/admin-table";
import { Button } from "@/components/ui/button";
import { logEntityTypes, logEventTypes, type LogEntityType, type LogEventType, type Severity } from "@/lib/enums";
import { plural } from "@/lib/plural";
import { cn } from "@/lib/utils";
import type { JsonValue } from "@/server/logbook/schemas";
import { formatDateTime, humanize } from "../kit/format";
import { ListFrame, ListPager, ListTable } from "../kit/list-table";
import { stateLines } from "./state-lines";
import { useLogbook, useLogbookEntry, useMarkAllLogbookRead, useRefreshAfterReading } from "./queries";

const levelTone = { INFO: "info", WARNING: "warning", ERROR: "danger" } as const;

/** An entry's states as lines a person reads ("price: €10.00 → €12.00"), what changed first and marked. */
function StateList({ previous, next }: { previous: JsonValue | null; next: JsonValue | null }) {
  const lines = stateLines(previous, next);
  if (lines.length === 0) return <p className="rounded-md border border-dashed p-3 text-xs text-muted-foreground">Nothing recorded</p>;
  return (
    <dl className="divide-y rounded-md border text-[13px]">
      {lines.map((line) => (
        <div key={line.key} className={cn("grid gap-x-3 gap-y-0.5 px-3 py-2 sm:grid-cols-[minmax(0,12rem)_minmax(0,1fr)]", !line.changed && "text-muted-foreground")}>
          <dt className="font-mono text-[12px] break-words text-muted-foreground">{line.key}</dt>
          <dd className="min-w-0 break-words">
            {line.before !== null && (line.changed || line.after === null) ? (
              <>
                <span className="text-muted-foreground line-through decoration-muted-foreground/50">{line.before}</span>
                <span aria-label="became" className="mx-1.5 text-muted-foreground">
                  →
                </span>
              </>
            ) : null}
            <span className={cn(line.changed && "font-medium text-foreground")}>{line.after ?? "none"}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The stored data as it is, for the odd question the lines do not answer. */
function RawData({ label, value }: { label: string; value: JsonValue | null }) {
  if (value === null) return null;
  return (
    <details className="text-xs">
      <summary className="cursor-pointer text-muted-foreground">{label} as stored</summary>
      <pre className="mt-2 overflow-x-auto rounded-md border bg-muted/40 p-3 font-mono text-[12px] leading-relaxed">{JSON.stringify(value, null, 2)}</pre>
    </details>
  );
}

function EntryDetail({ id, onClose }: { id: number; onClose: () => void }) {
  const entry = useLogbookEntry(id);
  const refreshAfterReading = useRefreshAfterReading();
  // Opening an entry marks it read on the server; the table and the sidebar counts follow.
  const read = entry.data?.id;
  useEffect(() => {
    if (read === undefined) return;
    refreshAfterReading();
  }, [read, refreshAfterReading]);
  const data = entry.data;
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <AdminSheetContent title={data ? data.description : "Logbook entry"} description={data ? `#${data.id} · ${formatDateTime(data.createdAt)} · ${data.userName ?? "system"}` : undefined}>
        {data ? (
          <div className="space-y-5">
            <div className="flex flex-wrap gap-2">
              <AdminBadge tone={levelTone[data.logLevel]}>{humanize(data.logLevel)}</AdminBadge>
              <AdminBadge>{humanize(data.eventType)}</AdminBadge>
              {data.entityType ? (
                <AdminBadge tone="brass">
                  {humanize(data.entityType)} {data.entityId}
                </AdminBadge>
              ) : null}
            </div>
            <div>
              <h3 className="mb-2 font-sans text-xs font-semibold tracking-wide text-muted-foreground uppercase">What changed</h3>
              <StateList previous={data.previousState} next={data.newState} />
            </div>
            {data.errorData !== null ? (
              <div>
                <h3 className="mb-2 font-sans text-xs font-semibold tracking-wide text-destructive uppercase">Error</h3>
                <StateList previous={null} next={data.errorData} />
              </div>
            ) : null}
            <div className="space-y-2">
              <RawData label="Previous state" value={data.previousState} />
              <RawData label="New state" value={data.newState} />
              <RawData label="Error" value={data.errorData} />
            </div>
          </div>
        ) : (
          <div className="h-40 animate-pulse rounded-md bg-muted/50" />
        )}
      </AdminSheetContent>
    </Dialog.Root>
  );
}

/** What an entry is about: "Order 238", "—" for none. */
function entityText(row: { entityType: LogEntityType | null; entityId: string | null }): string {
  return row.entityType ? `${humanize(row.entityType)} ${row.entityId ?? ""}` : "—";
}

/** The logbook at one level: filters in the address, newest first, unread in bold. */
export function LogbookView({ level }: { level: Severity }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const page = Math.max(1, Number(params.get("page")) || 1);
  const eventType = logEventTypes.includes(params.get("event") as LogEventType) ? (params.get("event") as LogEventType) : undefined;
  const entityType = logEntityTypes.includes(params.get("entity") as LogEntityType) ? (params.get("entity") as LogEntityType) : undefined;
  const unreadOnly = params.get("unread") === "1";
  const search = params.get("search") ?? "";
  const entryId = Number(params.get("entry")) || null;
  const [searchText, setSearchText] = useState(search);

  const list = useLogbook({ level, page, pageSize: 50, eventType, entityType, unreadOnly, search: search || undefined, entityId: params.get("entityId") || undefined });
  const markAll = useMarkAllLogbookRead();

  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params.toString());
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    if (!("page" in changes) && !("entry" in changes)) next.delete("page");
    router.replace(`${pathname}${next.size ? `?${next}` : ""}`, { scroll: false });
  };

  useEffect(() => {
    if (searchText === search) return;
    const timer = setTimeout(() => update({ search: searchText.trim() || undefined }), 300);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- update reads the latest address itself
  }, [searchText]);

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <div className="relative w-full sm:w-72">
          <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
          <AdminInput type="search" aria-label="Search descriptions" placeholder="Search descriptions" value={searchText} onChange={(event) => setSearchText(event.target.value)} className="pl-8" />
        </div>
        <AdminSelect aria-label="Event type" className="w-44" value={eventType ?? ""} onChange={(event) => update({ event: event.target.value || undefined })}>
          <option value="">All events</option>
          {logEventTypes.map((value) => (
            <option key={value} value={value}>
              {humanize(value)}
            </option>
          ))}
        </AdminSelect>
        <AdminSelect aria-label="Entity type" className="w-44" value={entityType ?? ""} onChange={(event) => update({ entity: event.target.value || undefined })}>
          <option value="">All entities</option>
          {logEntityTypes.map((value) => (
            <option key={value} value={value}>
              {humanize(value)}
            </option>
          ))}
        </AdminSelect>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" className="size-4 accent-[var(--primary)]" checked={unreadOnly} onChange={(event) => update({ unread: event.target.checked ? "1" : undefined })} />
          Unread only
        </label>
        <Button size="sm" variant="outline" className="ml-auto" disabled={markAll.isPending} onClick={() => markAll.mutate({ level })}>
          <CheckCheck /> Mark all {level.toLowerCase()} entries read
        </Button>
      </div>
      <ListFrame
        scroll="md:max-h-[calc(100dvh-13.5rem)]"
        footer={
          <ListPager
            summary={<span>{list.data ? plural(list.data.totalItems, "entry", "entries") : "Loading…"}</span>}
            page={page}
            totalPages={list.data?.totalPages ?? 1}
            onPage={(target) => update({ page: String(target) })}
          />
        }
      >
        <ListTable
          stacked
          columns={[{ className: "w-6" }, { label: "When" }, { label: "Event" }, { label: "Entity" }, { label: "Description" }, { label: "By" }]}
          bodyClassName={cn(list.isPlaceholderData && "opacity-60")}
          empty={list.data?.rows.length === 0 ? `No ${level.toLowerCase()} entries${unreadOnly ? " left unread" : ""} match.` : null}
          emptyClassName="h-32"
        >
          {list.data?.rows.map((row) => (
            <AdminTableRow key={row.id} className={cn("cursor-pointer", !row.read && "font-medium")} onClick={() => update({ entry: String(row.id) })} data-testid="logbook-row">
              <AdminTableCell data-corner>{row.read ? null : <span className="block size-2 rounded-full bg-primary" aria-label="unread" />}</AdminTableCell>
              <AdminTableCell data-label="When" className="whitespace-nowrap text-muted-foreground">
                {formatDateTime(row.createdAt)}
              </AdminTableCell>
              <AdminTableCell data-label="Event">
                <AdminBadge tone={levelTone[row.logLevel]}>{humanize(row.eventType)}</AdminBadge>
              </AdminTableCell>
              {/* An entity's id can be a long one (a user's): cut, in full on hover, so the columns after it keep their room. */}
              <AdminTableCell data-label="Entity" className="max-w-48 truncate whitespace-nowrap text-muted-foreground" title={entityText(row)}>
                {entityText(row)}
              </AdminTableCell>
              {/* The description takes what the other columns leave (width: 100%, max-width: 0) and is cut there, so the
                  table never grows past its frame and BY stays in view; on a phone it heads the entry's card, whole. */}
              <AdminTableCell className="w-full max-w-0 truncate max-md:order-first">{row.description}</AdminTableCell>
              <AdminTableCell data-label="By" className="whitespace-nowrap text-muted-foreground">
                {row.userName ?? "system"}
              </AdminTableCell>
            </AdminTableRow>
          ))}
        </ListTable>
      </ListFrame>
      {entryId ? <EntryDetail id={entryId} onClose={() => update({ entry: undefined })} /> : null}
    </div>
  );
}
