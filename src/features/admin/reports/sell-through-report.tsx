"use client";

import type { ReactNode } from "react";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { AdminTable, AdminTableBody, AdminTableCell, AdminTableHead, AdminTableHeader, AdminTableRow } from "@/components/ui/admin-table";
import type { SellThrough } from "@/server/reports/schemas";
import { formatCount } from "../kit/format";
import { stackedTable } from "../kit/list-table";
import { BoxName } from "./box-name";
import { useSellThrough } from "./queries";
import { CsvLink, RateBar, ReportState, useFirstRows } from "./report-kit";

// Sell-through per category and per box: of the pieces received, how many sold, were written off and are left.

/** How many rows show before "Show all": a shop's boxes over the years are many. */
const FIRST_ROWS = 20;

function ThroughTable({ testId, first, rows }: { testId: string; first: string; rows: { key: string; name: ReactNode; figures: SellThrough }[] }) {
  const { shown, more } = useFirstRows(rows, FIRST_ROWS);
  return (
    <>
      <div className="md:overflow-x-auto">
        <AdminTable data-testid={testId} className={stackedTable}>
          <AdminTableHeader>
            <tr>
              <AdminTableHead>{first}</AdminTableHead>
              {["Received", "Sold", "Written off", "Left", "Sell-through"].map((label) => (
                <AdminTableHead key={label} className="text-right">
                  {label}
                </AdminTableHead>
              ))}
            </tr>
          </AdminTableHeader>
          <AdminTableBody>
            {rows.length === 0 ? (
              <AdminTableRow>
                <AdminTableCell colSpan={6} className="h-20 text-center text-muted-foreground">
                  No pieces received yet.
                </AdminTableCell>
              </AdminTableRow>
            ) : null}
            {shown.map(({ key, name, figures }) => (
              <AdminTableRow key={key}>
                <AdminTableCell className="font-medium">{name}</AdminTableCell>
                <AdminTableCell data-label="Received" className="text-right tabular-nums">
                  {formatCount(figures.received)}
                </AdminTableCell>
                <AdminTableCell data-label="Sold" className="text-right tabular-nums">
                  {formatCount(figures.sold)}
                </AdminTableCell>
                <AdminTableCell data-label="Written off" className="text-right tabular-nums text-muted-foreground">
                  {figures.writtenOff ? formatCount(figures.writtenOff) : "—"}
                </AdminTableCell>
                <AdminTableCell data-label="Left" className="text-right tabular-nums">
                  {formatCount(figures.left)}
                </AdminTableCell>
                <AdminTableCell data-label="Sell-through" className="text-right">
                  <RateBar rate={figures.rate} />
                </AdminTableCell>
              </AdminTableRow>
            ))}
          </AdminTableBody>
        </AdminTable>
      </div>
      {more}
    </>
  );
}

export function SellThroughReport() {
  const { data, error, isFetching } = useSellThrough();
  return (
    <div className="space-y-4">
      <AdminCard>
        <AdminCardHeader
          title="Sell-through by category"
          description="Of the pieces received (bought in a box, or found), how many were sold and how many are left. Pieces a refund brought back count as left; those a correction took (lost, damaged) as written off. Sell-through is sold over received."
          actions={<CsvLink report="sell-through" />}
        />
        <ReportState what="sell-through" error={error} loading={!data} fetching={isFetching}>
          <ThroughTable testId="sell-through-categories" first="Category" rows={(data?.categories ?? []).map((row) => ({ key: String(row.categoryId), name: row.category, figures: row }))} />
        </ReportState>
      </AdminCard>
      <AdminCard>
        <AdminCardHeader title="Sell-through by box" description="Newest box first: how a box's purchases are selling." />
        <ReportState what="sell-through" error={error} loading={!data} fetching={isFetching}>
          <ThroughTable
            testId="sell-through-boxes"
            first="Box"
            rows={(data?.boxes ?? []).map((row) => ({ key: String(row.boxId), name: <BoxName boxId={row.boxId} status={row.boxStatus} createdAt={row.boxCreatedAt} />, figures: row }))}
          />
        </ReportState>
      </AdminCard>
    </div>
  );
}
