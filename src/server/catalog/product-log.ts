import "server-only";
import type { Db } from "@/server/db/client";
import { logChange, type LogChange } from "@/server/logbook/service";

/** Logs a change to one product the way every product change is logged: a PRODUCT event on that PRODUCT. */
export function logProductChange(
  db: Db,
  productId: number,
  change: Pick<LogChange, "userId" | "previousState" | "newState" | "description">,
): Promise<number> {
  return logChange(db, { ...change, eventType: "PRODUCT", entityType: "PRODUCT", entityId: productId });
}
