import "server-only";
import { count, eq, inArray } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { box, order, productRestockManager } from "@/server/db/schema";
import { unreadLogCounts } from "@/server/logbook/service";
import type { SidebarInformation } from "./schemas";

export async function getSidebarInformation(db: Db, readerId: string): Promise<SidebarInformation> {
  const [orders, logbook, boxes, [restock]] = await Promise.all([
    db
      .select({ status: order.status, value: count() })
      .from(order)
      .where(inArray(order.status, ["PENDING", "PAID_READY_TO_SHIP", "PAID_FUTURE_SHIPMENT", "PROCESSED"]))
      .groupBy(order.status),
    unreadLogCounts(db, readerId),
    db.select({ status: box.status, value: count() }).from(box).where(inArray(box.status, ["OPEN", "SHIPPED"])).groupBy(box.status),
    db.select({ value: count() }).from(productRestockManager).where(eq(productRestockManager.status, "PENDING")),
  ]);
  const orderCount = (status: string) => orders.find((row) => row.status === status)?.value ?? 0;
  const boxCount = (status: string) => boxes.find((row) => row.status === status)?.value ?? 0;
  return {
    orders: {
      pending: orderCount("PENDING"),
      paidReady: orderCount("PAID_READY_TO_SHIP"),
      paidFuture: orderCount("PAID_FUTURE_SHIPMENT"),
      processed: orderCount("PROCESSED"),
    },
    logbook: { totalCount: logbook.totalCount, warningCount: logbook.warningCount, errorCount: logbook.errorCount },
    boxes: { open: boxCount("OPEN"), shipped: boxCount("SHIPPED") },
    restock: { pending: restock?.value ?? 0 },
  };
}
