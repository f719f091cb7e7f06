"use client";

import Link from "next/link";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { AdminTable, AdminTableBody, AdminTableCell, AdminTableHead, AdminTableHeader, AdminTableRow } from "@/components/ui/admin-table";
import { listPageFromAddress } from "@/lib/list-page";
import { formatEuro } from "@/lib/money";
import { cn } from "@/lib/utils";
import { axisTick, tooltipStyle } from "../dashboard/chart-style";
import { formatCount, formatDate, formatPeso } from "../kit/format";
import { ListFrame, ListPager, ListTable, RowsPerPage } from "../kit/list-table";
import { stackedTable } from "../kit/list-table";
import { useListAddress } from "../kit/use-list-address";
import { BoxName } from "./box-name";
import { useAgedStock } from "./queries";
import { CsvLink, formatAxisEuro, ReportState, UnknownCostNote } from "./report-kit";

// Aged stock: the money tied up per age bucket as a chart and a table, then the lots themselves, the oldest first.

export function AgedStockReport() {
  const { params, update, goToPage } = useListAddress();
  const { page, pageSize } = listPageFromAddress(params);
  const { data, error, isFetching } = useAgedStock({ page, pageSize });
  // The axis names a bucket by its days alone, so that five fit under a phone's chart; the tooltip says it whole.
  const points = (data?.buckets ?? []).map((bucket) => ({ bucket: bucket.label.replace(" days", "").replace("Over a year", "1 yr +"), label: bucket.label, value: bucket.valueEuro.toNumber() }));
  const unknown = (data?.buckets ?? []).reduce((pieces, bucket) => pieces + bucket.unknownCostPieces, 0);
  const totalPages = Math.max(1, Math.ceil((data?.totalLots ?? 0) / pageSize));
  return (
    <div className="space-y-4">
      <AdminCard>
        <AdminCardHeader
          title="Money tied up by age"
          description="Each lot's pieces left, by the whole days since it was booked into stock, at the lot's cost."
          actions={<CsvLink report="aged-stock" />}
        />
        <ReportState what="aged stock" error={error} loading={!data} fetching={isFetching}>
          <div className="h-52 px-2 pt-4 pb-2" data-testid="aged-chart">
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={points} margin={{ left: 8, right: 12, top: 4, bottom: 0 }}>
                <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="bucket" tick={axisTick} tickLine={false} axisLine={false} interval={0} />
                <YAxis tick={axisTick} tickLine={false} axisLine={false} width={64} tickFormatter={formatAxisEuro} />
                <Tooltip {...tooltipStyle} cursor={{ fill: "var(--muted)" }} labelFormatter={(_, payload) => String(payload[0]?.payload?.label ?? "")} formatter={(value) => [formatEuro(Number(value)), "Tied up"]} />
                <Bar dataKey="value" fill="var(--brass)" radius={[4, 4, 0, 0]} barSize={28} isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </div>
          <div className="border-t md:overflow-x-auto">
            <AdminTable data-testid="aged-buckets" className={stackedTable}>
              <AdminTableHeader>
                <tr>
                  <AdminTableHead>In stock for</AdminTableHead>
                  {["Lots", "Pieces", "Value €", "Value ₱", "Unknown cost"].map((label) => (
                    <AdminTableHead key={label} className="text-right">
                      {label}
                    </AdminTableHead>
                  ))}
                </tr>
              </AdminTableHeader>
              <AdminTableBody>
                {data?.buckets.map((bucket) => (
                  <AdminTableRow key={bucket.key} data-testid={`aged-${bucket.key}`}>
                    <AdminTableCell className="font-medium">{bucket.label}</AdminTableCell>
                    <AdminTableCell data-label="Lots" className="text-right tabular-nums">
                      {formatCount(bucket.lots)}
                    </AdminTableCell>
                    <AdminTableCell data-label="Pieces" className="text-right tabular-nums">
                      {formatCount(bucket.pieces)}
                    </AdminTableCell>
                    <AdminTableCell data-label="Value €" className="text-right font-medium tabular-nums">
                      {formatEuro(bucket.valueEuro)}
                    </AdminTableCell>
                    <AdminTableCell data-label="Value ₱" className="text-right tabular-nums text-muted-foreground">
                      {formatPeso(bucket.valuePhp)}
                    </AdminTableCell>
                    <AdminTableCell data-label="Unknown cost" className={cn("text-right tabular-nums", bucket.unknownCostPieces > 0 ? "text-amber-700 dark:text-amber-400" : "text-muted-foreground")}>
                      {bucket.unknownCostPieces > 0 ? `${formatCount(bucket.unknownCostPieces)} pcs` : "—"}
                    </AdminTableCell>
                  </AdminTableRow>
                ))}
              </AdminTableBody>
            </AdminTable>
          </div>
          <UnknownCostNote pieces={unknown} valued="in stock" />
        </ReportState>
      </AdminCard>

      <section aria-label="Oldest lots">
        <h2 className="mb-2 text-sm font-semibold">Oldest lots first</h2>
        <ListFrame
          footer={
            <ListPager summary={<span>{formatCount(data?.totalLots ?? 0)} lots with pieces left</span>} page={page} totalPages={totalPages} onPage={goToPage}>
              <RowsPerPage value={pageSize} update={update} className="hidden items-center gap-1.5 sm:flex" />
            </ListPager>
          }
        >
          <ListTable
            stacked
            columns={[
              { label: "Product" },
              { label: "Box" },
              { label: "Booked in" },
              { label: "Days", className: "text-right" },
              { label: "Pieces left", className: "text-right" },
              { label: "Unit cost", className: "text-right" },
              { label: "Value", className: "text-right" },
            ]}
            loadingRows={data ? 0 : 5}
            empty={data && data.lots.length === 0 ? "Nothing in stock." : null}
          >
            {data?.lots.map((lot) => (
              <AdminTableRow key={lot.lotId} data-testid="aged-lot">
                <AdminTableCell className="max-w-80 truncate">
                  <Link href={`/admin/products/edit?id=${lot.productId}&tab=stock`} className="font-medium hover:underline">
                    {lot.productName}
                  </Link>
                </AdminTableCell>
                <AdminTableCell data-label="Box">
                  <BoxName boxId={lot.boxId} />
                </AdminTableCell>
                <AdminTableCell data-label="Booked in" className="whitespace-nowrap">
                  {formatDate(lot.bookedAt)}
                </AdminTableCell>
                <AdminTableCell data-label="Days" className="text-right tabular-nums">
                  {formatCount(lot.daysInStock)}
                </AdminTableCell>
                <AdminTableCell data-label="Pieces left" className="text-right tabular-nums">
                  {formatCount(lot.piecesLeft)}
                </AdminTableCell>
                <AdminTableCell data-label="Unit cost" className="text-right tabular-nums">
                  {lot.unitCostEuro ? formatEuro(lot.unitCostEuro) : <span className="text-amber-700 dark:text-amber-400">Unknown</span>}
                </AdminTableCell>
                <AdminTableCell data-label="Value" className="text-right font-medium tabular-nums">
                  {lot.valueEuro ? formatEuro(lot.valueEuro) : "—"}
                </AdminTableCell>
              </AdminTableRow>
            ))}
          </ListTable>
        </ListFrame>
      </section>
    </div>
  );
}
