import { z } from "zod";
import { rowId } from "@/lib/id";
import { listPageInput } from "@/lib/list-page";
import { text } from "@/lib/text";
import { logEntityTypes, logEventTypes, severities, type LogEntityType, type LogEventType, type Severity } from "@/lib/enums";

export const logbookListInput = z.object({
  level: z.enum(severities),
  eventType: z.enum(logEventTypes).optional(),
  entityType: z.enum(logEntityTypes).optional(),
  entityId: text().trim().max(64).optional(),
  /** Words in the description. */
  search: text().trim().max(200).optional(),
  unreadOnly: z.boolean().default(false),
  ...listPageInput.shape,
});
export type LogbookListInput = z.input<typeof logbookListInput>;
export type LogbookListQuery = z.output<typeof logbookListInput>;

export const logbookEntryInput = z.object({ id: rowId });
export const logbookMarkReadInput = z.object({ ids: z.array(rowId).min(1).max(500) });
export const logbookMarkAllReadInput = z.object({ level: z.enum(severities) });

/** JSON as stored in the logbook's state columns. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export type LogbookRow = {
  id: number;
  createdAt: Date;
  logLevel: Severity;
  eventType: LogEventType;
  entityType: LogEntityType | null;
  entityId: string | null;
  description: string;
  userName: string | null;
  read: boolean;
};

export type LogbookEntry = LogbookRow & {
  previousState: JsonValue | null;
  newState: JsonValue | null;
  errorData: JsonValue | null;
};

export type LogbookPage = { rows: LogbookRow[]; totalItems: number; page: number; pageSize: number; totalPages: number };

export type UnreadLogCounts = { totalCount: number; infoCount: number; warningCount: number; errorCount: number };
