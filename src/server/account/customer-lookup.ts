import "server-only";
import { asc, eq, ilike, or } from "drizzle-orm";
import type { UserRole } from "@/lib/enums";
import type { Db } from "@/server/db/client";
import { user } from "@/server/db/schema";
import { AppError } from "@/server/errors";
import { escapeLike } from "@/server/logbook/service";
import type { Address, CustomerMatch } from "./schemas";
import { listAddresses } from "./service";

/**
 * Staff looking up a customer: by name or e-mail, and their address book. The manual order form chooses its customer
 * and ships to one of their addresses with it; the discounts admin gives a customer discount (USER) to those it finds.
 */

/** Customers whose name or e-mail contains the search, ten at most, with their role. */
export async function searchCustomers(db: Db, search: string): Promise<(CustomerMatch & { role: UserRole })[]> {
  const pattern = `%${escapeLike(search.trim())}%`;
  return db
    .select({ id: user.id, name: user.name, email: user.email, role: user.role })
    .from(user)
    .where(or(ilike(user.email, pattern), ilike(user.name, pattern)))
    .orderBy(asc(user.email))
    .limit(10);
}

/** A customer's address book, to ship a manual order to one of their addresses. */
export async function customerAddresses(db: Db, userId: string): Promise<Address[]> {
  const [customer] = await db.select({ id: user.id }).from(user).where(eq(user.id, userId));
  if (!customer) throw new AppError("NOT_FOUND", "That customer no longer exists.");
  return listAddresses(db, userId);
}
