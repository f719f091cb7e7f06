import { relations } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "./columns";
import { user } from "./auth";
import { logEntityType, logEventType, notificationType, severity } from "./enums";

/** Everything that changed business state, with the state before and after, written in the same transaction. */
export const logbook = pgTable(
  "logbook",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    /** Who made the change; empty for the system, a webhook or a guest. */
    userId: text().references(() => user.id, { onDelete: "set null" }),
    eventType: logEventType().notNull(),
    entityType: logEntityType(),
    entityId: text(),
    previousState: jsonb(),
    newState: jsonb(),
    errorData: jsonb(),
    logLevel: severity().notNull().default("INFO"),
    description: text().notNull(),
    ...timestamps,
  },
  (t) => [
    index("logbook_level_created_idx").on(t.logLevel, t.createdAt.desc()),
    index("logbook_entity_idx").on(t.entityType, t.entityId),
    index("logbook_created_idx").on(t.createdAt.desc()),
    // A customer's page, their data export and their erasure read what they did, newest first.
    index("logbook_user_created_idx").on(t.userId, t.createdAt.desc()),
  ],
);

/** Which staff member has read which logbook entry; unread entries feed the sidebar counts. */
export const logbookReadByUser = pgTable(
  "logbook_read_by_user",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    logbookId: integer()
      .notNull()
      .references(() => logbook.id, { onDelete: "cascade" }),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    ...timestamps,
  },
  (t) => [uniqueIndex("logbook_read_by_user_unique").on(t.logbookId, t.userId)],
);

/** A message for staff (a new order, a refund, a deployment); `userIdRead` is who marked it read. */
export const adminNotification = pgTable(
  "admin_notification",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    type: notificationType().notNull(),
    message: text().notNull(),
    severity: severity().notNull().default("INFO"),
    userIdRead: text().references(() => user.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [index("admin_notification_unread_idx").on(t.userIdRead, t.createdAt.desc())],
);

export const logbookRelations = relations(logbook, ({ one, many }) => ({
  user: one(user, { fields: [logbook.userId], references: [user.id] }),
  readBy: many(logbookReadByUser),
}));

export const logbookReadByUserRelations = relations(logbookReadByUser, ({ one }) => ({
  logbook: one(logbook, { fields: [logbookReadByUser.logbookId], references: [logbook.id] }),
  user: one(user, { fields: [logbookReadByUser.userId], references: [user.id] }),
}));

export const adminNotificationRelations = relations(adminNotification, ({ one }) => ({
  readBy: one(user, { fields: [adminNotification.userIdRead], references: [user.id] }),
}));
