"use client";

import Link from "next/link";
import type { BoxStatus } from "@/lib/enums";
import { formatDate, humanize } from "../kit/format";

/** A box as the reports name it: a link to its page with when it was made, or what came in without one. */
export function BoxName({ boxId, status, createdAt }: { boxId: number | null; status?: BoxStatus | null; createdAt?: Date | null }) {
  if (boxId === null) return <span className="text-muted-foreground">No box (found or older stock)</span>;
  return (
    <span className="whitespace-nowrap">
      <Link href={`/admin/boxes/${boxId}`} className="font-medium text-primary hover:underline">
        Box {boxId}
      </Link>
      {createdAt ? <span className="ml-1.5 text-xs text-muted-foreground">{formatDate(createdAt)}</span> : null}
      {status && status !== "EXPLODED" ? <span className="ml-1.5 text-xs text-muted-foreground">· {humanize(status)}</span> : null}
    </span>
  );
}
