import "server-only";
import { and, count, desc, eq, isNull } from "drizzle-orm";
import type { NotificationType, Severity } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { adminNotification, user } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { notificationLink } from "./links";
import type { AdminNotificationList } from "./schemas";

/** A message for staff; callers pass their transaction so it appears together with what it announces. */
export async function notifyStaff(
  tx: Db,
  notification: { type: NotificationType; message: string; severity?: Severity },
): Promise<number> {
  const [row] = await tx
    .insert(adminNotification)
    .values({ type: notification.type, message: notification.message, severity: notification.severity ?? "INFO" })
    .returning({ id: adminNotification.id });
  return row!.id;
}

/** The newest notifications, unread first, and how many are unread. Notifications are shared by all staff. */
export async function listNotifications(db: Db, input: { unreadOnly: boolean; limit: number }): Promise<AdminNotificationList> {
  const [rows, [unread]] = await Promise.all([
    db
      .select({
        id: adminNotification.id,
        type: adminNotification.type,
        message: adminNotification.message,
        severity: adminNotification.severity,
        createdAt: adminNotification.createdAt,
        readBy: user.name,
      })
      .from(adminNotification)
      .leftJoin(user, eq(user.id, adminNotification.userIdRead))
      .where(input.unreadOnly ? isNull(adminNotification.userIdRead) : undefined)
      .orderBy(desc(isNull(adminNotification.userIdRead)), desc(adminNotification.createdAt), desc(adminNotification.id))
      .limit(input.limit),
    db.select({ value: count() }).from(adminNotification).where(isNull(adminNotification.userIdRead)),
  ]);
  return { rows: rows.map((row) => ({ ...row, readBy: row.readBy ?? null, href: notificationLink(row.message) })), unread: unread?.value ?? 0 };
}

/** Marks a notification read by this staff member; one already read keeps its first reader. */
export async function markNotificationRead(db: Db, id: number, userId: string): Promise<void> {
  const updated = await db
    .update(adminNotification)
    .set({ userIdRead: userId })
    .where(and(eq(adminNotification.id, id), isNull(adminNotification.userIdRead)))
    .returning({ id: adminNotification.id });
  if (updated.length > 0) return;
  const [exists] = await db.select({ id: adminNotification.id }).from(adminNotification).where(eq(adminNotification.id, id));
  if (!exists) throw new AppError("NOT_FOUND", `Notification ${id} does not exist.`);
}

export async function markAllNotificationsRead(db: Db, userId: string): Promise<void> {
  await db.update(adminNotification).set({ userIdRead: userId }).where(isNull(adminNotification.userIdRead));
}
