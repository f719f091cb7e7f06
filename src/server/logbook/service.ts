import "server-only";
import { and, count, desc, eq, ilike, inArray, notExists, sql, type SQL } from "drizzle-orm";
import type { LogEntityType, LogEventType, Severity } from "@/lib/enums";
import type { SelectedFields } from "drizzle-orm/pg-core";
import type { Db } from "@/server/db/client";
import { pageOf } from "@/server/db/page";
import { logbook, logbookReadByUser, user } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import type { JsonValue, LogbookEntry, LogbookListQuery, LogbookPage, UnreadLogCounts } from "./schemas";

export type LogChange = {
  /** Who made the change; null for the system, a webhook or a guest. */
  userId: string | null;
  eventType: LogEventType;
  entityType?: LogEntityType;
  entityId?: string | number;
  previousState?: unknown;
  newState?: unknown;
  errorData?: unknown;
  logLevel?: Severity;
  description: string;
};

/**
 * Plain JSON of a state for the logbook: Decimals become their text (decimal.js has toJSON), dates ISO text, so
 * that what is stored reads the same as what the API shows.
 */
export function toLogState(value: unknown): JsonValue | null {
  if (value === undefined || value === null) return null;
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}

/**
 * Writes one logbook entry. Callers pass their transaction, so the entry commits or rolls back with the change it
 * describes (ARCHITECTURE section 3).
 */
export async function logChange(tx: Db, change: LogChange): Promise<number> {
  const [row] = await tx
    .insert(logbook)
    .values({
      userId: change.userId,
      eventType: change.eventType,
      entityType: change.entityType ?? null,
      entityId: change.entityId === undefined ? null : String(change.entityId),
      previousState: toLogState(change.previousState),
      newState: toLogState(change.newState),
      errorData: toLogState(change.errorData),
      logLevel: change.logLevel ?? "INFO",
      description: change.description,
    })
    .returning({ id: logbook.id });
  return row!.id;
}

/** An entry about one order (event and entity ORDER), the entry most order changes write. */
export function logOrderChange(tx: Db, orderId: number, change: Omit<LogChange, "eventType" | "entityType" | "entityId">): Promise<number> {
  return logChange(tx, { ...change, eventType: "ORDER", entityType: "ORDER", entityId: orderId });
}

function readBy(userId: string): SQL {
  return sql`exists (select 1 from ${logbookReadByUser} where ${logbookReadByUser.logbookId} = ${logbook.id} and ${logbookReadByUser.userId} = ${userId})`;
}

function unreadBy(userId: string): SQL {
  return notExists(
    sql`(select 1 from ${logbookReadByUser} where ${logbookReadByUser.logbookId} = ${logbook.id} and ${logbookReadByUser.userId} = ${userId})`,
  );
}

const rowColumns = (userId: string) => ({
  id: logbook.id,
  createdAt: logbook.createdAt,
  logLevel: logbook.logLevel,
  eventType: logbook.eventType,
  entityType: logbook.entityType,
  entityId: logbook.entityId,
  description: logbook.description,
  userName: sql<string | null>`coalesce(${user.name}, ${user.email})`,
  read: sql<boolean>`${readBy(userId)}`.mapWith(Boolean),
});

/**
 * Entries with who wrote them and whether the reader has seen them, and `more` of their columns; the caller adds the
 * `where` and the order.
 */
function selectEntries<TMore extends SelectedFields>(db: Db, readerId: string, more: TMore) {
  return db
    .select({ ...rowColumns(readerId), ...more })
    .from(logbook)
    .leftJoin(user, eq(user.id, logbook.userId))
    .$dynamic();
}

const newestFirst = [desc(logbook.createdAt), desc(logbook.id)];

/** One page of the logbook at one level, newest first, with whether the reader has seen each entry. */
export async function listLogbook(db: Db, readerId: string, input: LogbookListQuery): Promise<LogbookPage> {
  const conditions: SQL[] = [eq(logbook.logLevel, input.level)];
  if (input.eventType) conditions.push(eq(logbook.eventType, input.eventType));
  if (input.entityType) conditions.push(eq(logbook.entityType, input.entityType));
  if (input.entityId) conditions.push(eq(logbook.entityId, input.entityId));
  if (input.search) conditions.push(ilike(logbook.description, `%${escapeLike(input.search)}%`));
  if (input.unreadOnly) conditions.push(unreadBy(readerId));
  const where = and(...conditions);

  const [rows, [total]] = await Promise.all([
    selectEntries(db, readerId, {})
      .where(where)
      .orderBy(...newestFirst)
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ value: count() }).from(logbook).where(where),
  ]);
  return pageOf(rows, total?.value ?? 0, input);
}

/** One entry with its states; opening it marks it read for the reader. */
export async function getLogbookEntry(db: Db, readerId: string, id: number): Promise<LogbookEntry> {
  const [row] = await selectEntries(db, readerId, { previousState: logbook.previousState, newState: logbook.newState, errorData: logbook.errorData }).where(eq(logbook.id, id));
  if (!row) throw new AppError("NOT_FOUND", `Logbook entry ${id} does not exist.`);
  await markLogbookRead(db, readerId, [id]);
  return {
    ...row,
    read: true,
    previousState: (row.previousState ?? null) as JsonValue | null,
    newState: (row.newState ?? null) as JsonValue | null,
    errorData: (row.errorData ?? null) as JsonValue | null,
  };
}

/** Marks entries read for one staff member; marking twice changes nothing. */
export async function markLogbookRead(db: Db, readerId: string, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const existing = await db.select({ id: logbook.id }).from(logbook).where(inArray(logbook.id, ids));
  if (existing.length === 0) return 0;
  const inserted = await db
    .insert(logbookReadByUser)
    .values(existing.map((row) => ({ logbookId: row.id, userId: readerId })))
    .onConflictDoNothing()
    .returning({ id: logbookReadByUser.id });
  return inserted.length;
}

/** Marks every entry of a level read for one staff member, in one statement. */
export async function markLogbookLevelRead(db: Db, readerId: string, level: Severity): Promise<void> {
  await db.execute(sql`
    insert into ${logbookReadByUser} (logbook_id, user_id)
    select ${logbook.id}, ${readerId} from ${logbook}
    where ${logbook.logLevel} = ${level} and ${unreadBy(readerId)}
    on conflict do nothing`);
}

/** What one staff member has not read yet, per level. */
export async function unreadLogCounts(db: Db, readerId: string): Promise<UnreadLogCounts> {
  const rows = await db
    .select({ level: logbook.logLevel, value: count() })
    .from(logbook)
    .where(unreadBy(readerId))
    .groupBy(logbook.logLevel);
  const of = (level: Severity) => rows.find((row) => row.level === level)?.value ?? 0;
  return {
    infoCount: of("INFO"),
    warningCount: of("WARNING"),
    errorCount: of("ERROR"),
    totalCount: rows.reduce((sum, row) => sum + row.value, 0),
  };
}

/** The newest unread warnings and errors, for the dashboard. */
export async function latestUnreadProblems(db: Db, readerId: string, limit = 6) {
  return selectEntries(db, readerId, {})
    .where(and(inArray(logbook.logLevel, ["WARNING", "ERROR"]), unreadBy(readerId)))
    .orderBy(...newestFirst)
    .limit(limit);
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** Logs a change to one product the way every product change is logged: a PRODUCT event on that PRODUCT. */
export function logProductChange(
  db: Db,
  productId: number,
  change: Pick<LogChange, "userId" | "previousState" | "newState" | "description">,
): Promise<number> {
  return logChange(db, { ...change, eventType: "PRODUCT", entityType: "PRODUCT", entityId: productId });
}
