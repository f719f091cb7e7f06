import { z } from "zod";
import { rowId } from "@/lib/id";
import type { NotificationType, Severity } from "@/lib/enums";

export const notificationListInput = z.object({
  unreadOnly: z.boolean().default(false),
  limit: z.number().int().min(1).max(100).default(20),
});
export const notificationIdInput = z.object({ id: rowId });

export type AdminNotificationRow = {
  id: number;
  type: NotificationType;
  message: string;
  severity: Severity;
  createdAt: Date;
  /** Who marked it read; null while nobody has. */
  readBy: string | null;
  /** Where it leads in the back office (the order it is about); null when it names nothing to open. */
  href: string | null;
};

export type AdminNotificationList = { rows: AdminNotificationRow[]; unread: number };
