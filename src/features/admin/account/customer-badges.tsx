import { AdminBadge } from "@/components/ui/admin-badge";
import type { UserRole } from "@/lib/enums";

/** A customer's page in the back office; the order page, refunds and the customer pickers link to it. */
export function customerPath(userId: string): string {
  return `/admin/customers/${encodeURIComponent(userId)}`;
}

/** What sets a customer apart at a glance: VIP, staff, or erased on their request. */
export function CustomerBadges({ role, erasedAt }: { role: UserRole; erasedAt?: Date | null }) {
  return (
    <>
      {role === "VIP" ? <AdminBadge tone="brass">VIP</AdminBadge> : null}
      {role === "ADMIN" ? <AdminBadge tone="info">Staff</AdminBadge> : null}
      {erasedAt ? <AdminBadge tone="neutral">Erased</AdminBadge> : null}
    </>
  );
}
