import type { Decimal } from "decimal.js";
import { z } from "zod";
import type { LogEntityType, LogEventType, RefundReason, RefundStatus, RefundType, UserRole } from "@/lib/enums";
import { listPageInput } from "@/lib/list-page";
import { lineText, text } from "@/lib/text";
import { customerIdInput, type Address, type OrderSummary } from "./schemas";

/**
 * The customer admin's inputs and what it answers (`admin.customers.*`): the customer table, one customer's page
 * with staff's note, tags and VIP, and a customer's data exported or erased on their request (GDPR). The table's
 * inputs are the address's search parameters, so a page can be reloaded or shared.
 */

export const customerSortColumns = ["lastOrder", "spend", "orders", "name", "email", "joined"] as const;
export type CustomerSortColumn = (typeof customerSortColumns)[number];

/** Who the table lists: everyone, VIP customers only, or staff only. */
export const customerRoleFilters = ["vip", "staff"] as const;
export type CustomerRoleFilter = (typeof customerRoleFilters)[number];

export const customerListInput = z.object({
  /** Words that each start or lie within the name or the e-mail, or start one of the customer's tags. */
  search: text().trim().max(200).optional(),
  role: z.enum(customerRoleFilters).optional(),
  sort: z.enum(customerSortColumns).default("lastOrder"),
  direction: z.enum(["asc", "desc"]).default("desc"),
  ...listPageInput.shape,
});
export type CustomerListInput = z.input<typeof customerListInput>;
export type CustomerListQuery = z.output<typeof customerListInput>;

/**
 * What a customer's orders come to, one rule for the table and the page: `orders` counts those placed and not
 * cancelled; `paid` is what they paid on orders paid and not cancelled (`paymentDetail.total`); `refunded` what went
 * back on those, or is on its way (PENDING and REFUNDED refunds); `spend` is `paid` less `refunded`, the money the
 * shop kept. Unpaid orders count as orders but add nothing to the money.
 */
export type CustomerStats = { orders: number; paid: Decimal; refunded: Decimal; spend: Decimal; lastOrderAt: Date | null };

export type CustomerDiscount = { id: number; name: string; label: string };

export type CustomerRow = CustomerStats & {
  id: string;
  name: string | null;
  email: string;
  role: UserRole;
  tags: string[];
  discount: CustomerDiscount | null;
  joinedAt: Date;
  erasedAt: Date | null;
};

export type CustomerPage = { rows: CustomerRow[]; totalItems: number; page: number; pageSize: number; totalPages: number };

/** A tag as staff type it: one short line; kept as typed, compared without regard to case. */
const tag = lineText("A tag").min(1, "A tag is not empty").max(40, "A tag is at most 40 characters");
export const MAX_TAGS = 20;

export const customerNotesInput = customerIdInput.extend({
  staffNote: text()
    .trim()
    .max(2000, "The note is at most 2,000 characters")
    .transform((value) => value || null),
  tags: z.array(tag).max(MAX_TAGS, `At most ${MAX_TAGS} tags`),
});
export type CustomerNotesInput = z.input<typeof customerNotesInput>;
export type CustomerNotesValues = z.output<typeof customerNotesInput>;

export const customerVipInput = customerIdInput.extend({ vip: z.boolean() });

export type CustomerRefund = {
  id: number;
  orderNumber: string;
  createdAt: Date;
  type: RefundType;
  reason: RefundReason;
  amount: Decimal;
  status: RefundStatus;
  comment: string | null;
};

/** An entry of the logbook about the customer (their account) or made by them (their address book). */
export type CustomerLogEntry = {
  id: number;
  createdAt: Date;
  eventType: LogEventType;
  entityType: LogEntityType | null;
  entityId: string | null;
  description: string;
  by: string | null;
};

/** The logbook entries a customer's page shows, newest first; the logbook itself holds them all. */
export const CUSTOMER_LOG_ENTRIES = 50;

export type CustomerDetail = {
  id: string;
  name: string | null;
  email: string;
  role: UserRole;
  joinedAt: Date;
  erasedAt: Date | null;
  staffNote: string | null;
  tags: string[];
  discount: CustomerDiscount | null;
  signInMethods: string[];
  stats: CustomerStats;
  orders: OrderSummary[];
  refunds: CustomerRefund[];
  addresses: Address[];
  logbook: CustomerLogEntry[];
};

/** What erasing a customer did (or, asked again, that it had been done). */
export type CustomerErasure = {
  userId: string;
  erasedAt: Date;
  alreadyErased: boolean;
  addressesDeleted: number;
  ordersKeptWithInvoiceAddress: number;
  ordersStripped: number;
};

/** The placeholder that takes an erased customer's e-mail: unique per account, on a domain that cannot receive mail. */
export function erasedEmail(userId: string): string {
  return `erased-${userId}@erased.invalid`;
}

export const ERASED_NAME = "Erased customer";

