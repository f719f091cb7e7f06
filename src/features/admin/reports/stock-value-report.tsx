"use client";

import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { AdminTable, AdminTableBody, AdminTableCell, AdminTableHead, AdminTableHeader, AdminTableRow } from "@/components/ui/admin-table";
import { formatEuro } from "@/lib/money";
import type { StockValue } from "@/server/reports/schemas";
import { axisTick, tooltipStyle } from "../dashboard/chart-style";
import { formatCount, formatPeso } from "../kit/format";
import { stackedTable } from "../kit/list-table";
import { BoxName } from "./box-name";
import { useStockValue } from "./queries";
import { CsvLink, formatAxisEuro, ReportState, UnknownCostNote, useFirstRows } from "./report-kit";

// The stock at cost: the total, a chart of where the money sits by category, and the tables by category and by box.

/** How many categories the chart names; the table has them all. */
const CHART_CATEGORIES = 8;
/** How many boxes show before "Show all": the newest, the ones still selling. */
const FIRST_BOXES = 20;

/** A category on the chart's axis: its own name, without its parent's, cut to fit (the tooltip and table have it whole). */
function shortCategory(category: string): string {
  const own = category.split(" › ").at(-1) ?? category;
  return own.length > 20 ? `${own.slice(0, 19)}…` : own;
}

function ValueCells({ value }: { value: StockValue }) {
  return (
    <>
      <AdminTableCell data-label="Pieces" className="text-right tabular-nums">
        {formatCount(value.pieces)}
      </AdminTableCell>
      <AdminTableCell data-label="Value €" className="text-right font-medium tabular-nums">
        {formatEuro(value.valueEuro)}
      </AdminTableCell>
      <AdminTableCell data-label="Value ₱" className="text-right tabular-nums text-muted-foreground">
        {formatPeso(value.valuePhp)}
      </AdminTableCell>
      <AdminTableCell data-label="Unknown cost" className={value.unknownCostPieces > 0 ? "text-right tabular-nums text-amber-700 dark:text-amber-400" : "text-right text-muted-foreground"}>
        {value.unknownCostPieces > 0 ? `${formatCount(value.unknownCostPieces)} pcs` : "—"}
      </AdminTableCell>
    </>
  );
}

function ValueHead({ first }: { first: string }) {
  return (
    <AdminTableHeader>
      <tr>
        <AdminTableHead>{first}</AdminTableHead>
        {["Pieces", "Value €", "Value ₱", "Unknown cost"].map((label) => (
          <AdminTableHead key={label} className="text-right">
            {label}
          </AdminTableHead>
        ))}
      </tr>
    </AdminTableHeader>
  );
}

export function StockValueReport() {
  const { data, error, isFetching } = useStockValue();
  const boxes = useFirstRows(data?.boxes ?? [], FIRST_BOXES);
  const points = (data?.categories ?? []).slice(0, CHART_CATEGORIES).map((row) => ({ category: row.category, value: row.valueEuro.toNumber() }));
  return (
    <div className="space-y-4">
      <AdminCard>
        <AdminCardHeader
          title="Stock at cost"
          description="The pieces in stock at what they cost to buy, lot by lot (first bought, first sold), in euro at each box's rate and in peso. Pieces of unknown cost are counted apart, not valued at zero."
          actions={<CsvLink report="stock-value" />}
        />
        <ReportState what="stock value" error={error} loading={!data} fetching={isFetching}>
          {data ? (
            <>
              <dl className="grid grid-cols-2 gap-px bg-border sm:grid-cols-4" data-testid="stock-value-total">
                {[
                  ["Value", formatEuro(data.total.valueEuro)],
                  ["Value in peso", formatPeso(data.total.valuePhp)],
                  ["Pieces", formatCount(data.total.pieces)],
                  ["Unknown cost", `${formatCount(data.total.unknownCostPieces)} pcs`],
                ].map(([label, value]) => (
                  <div key={label} className="bg-card px-4 py-3">
                    <dt className="text-xs text-muted-foreground">{label}</dt>
                    <dd className="mt-1 font-serif text-base font-semibold break-all tabular-nums sm:text-xl">{value}</dd>
                  </div>
                ))}
              </dl>
              {points.length > 0 ? (
                <div className="h-72 border-t px-2 pt-3 pb-2">
                  <ResponsiveContainer width="100%" height="100%">
                    <BarChart data={points} layout="vertical" margin={{ left: 8, right: 16, top: 0, bottom: 0 }}>
                      <XAxis type="number" tick={axisTick} tickLine={false} axisLine={false} tickFormatter={formatAxisEuro} />
                      <YAxis type="category" dataKey="category" tick={axisTick} tickLine={false} axisLine={false} width={132} interval={0} tickFormatter={shortCategory} />
                      <Tooltip {...tooltipStyle} cursor={{ fill: "var(--muted)" }} formatter={(value) => [formatEuro(Number(value)), "Value"]} />
                      <Bar dataKey="value" fill="var(--brass)" radius={[0, 4, 4, 0]} barSize={14} isAnimationActive={false} />
                    </BarChart>
                  </ResponsiveContainer>
                </div>
              ) : null}
              <UnknownCostNote pieces={data.total.unknownCostPieces} valued="in stock" />
            </>
          ) : null}
        </ReportState>
      </AdminCard>
      <div className="grid gap-4 2xl:grid-cols-2">
        <AdminCard>
          <AdminCardHeader title="By category" />
          <div className="md:overflow-x-auto">
            <AdminTable data-testid="stock-value-categories" className={stackedTable}>
              <ValueHead first="Category" />
              <AdminTableBody>
                {data?.categories.length === 0 ? <EmptyRow /> : null}
                {data?.categories.map((row) => (
                  <AdminTableRow key={row.categoryId ?? "none"}>
                    <AdminTableCell className="font-medium">{row.category}</AdminTableCell>
                    <ValueCells value={row} />
                  </AdminTableRow>
                ))}
              </AdminTableBody>
            </AdminTable>
          </div>
        </AdminCard>
        <AdminCard>
          <AdminCardHeader title="By box" description="Newest box first." />
          <div className="md:overflow-x-auto">
            <AdminTable data-testid="stock-value-boxes" className={stackedTable}>
              <ValueHead first="Box" />
              <AdminTableBody>
                {data?.boxes.length === 0 ? <EmptyRow /> : null}
                {boxes.shown.map((row) => (
                  <AdminTableRow key={row.boxId ?? "none"}>
                    <AdminTableCell>
                      <BoxName boxId={row.boxId} status={row.boxStatus} createdAt={row.boxCreatedAt} />
                    </AdminTableCell>
                    <ValueCells value={row} />
                  </AdminTableRow>
                ))}
              </AdminTableBody>
            </AdminTable>
          </div>
          {boxes.more}
        </AdminCard>
      </div>
    </div>
  );
}

function EmptyRow() {
  return (
    <AdminTableRow>
      <AdminTableCell colSpan={5} className="h-20 text-center text-muted-foreground">
        Nothing in stock.
      </AdminTableCell>
    </AdminTableRow>
  );
}
