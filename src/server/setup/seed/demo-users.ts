import "server-only";
import { sql } from "drizzle-orm";
import { DEMO_ADMIN_TOTP_SECRET } from "@/server/auth/demo-admin";
import { setConfirmedTotp } from "@/server/auth/second-factor";
import type { Db } from "@/server/db/client";
import * as schema from "@/server/db/schema";
import { insertInChunks } from "@/server/db/bulk-insert";
import { customerAddresses, demoUsers } from "./reference-data";

/**
 * The demo's people: an admin with a confirmed second factor, a member of staff who has not set one up yet, and a
 * customer with an address book and the "Loyal collector" discount (`loyalDiscountId`).
 */
export async function seedDemoUsers(
  tx: Db,
  { now, loyalDiscountId, log }: { now: Date; loyalDiscountId: number | null; log: (line: string) => void },
): Promise<{ adminId: string; customerId: string }> {
  // The demo users keep their ids across reseeds, so that a signed-in session survives.
  const [admin] = await tx.insert(schema.user)
    .values({ ...demoUsers.admin, role: "ADMIN", emailVerified: now })
    .onConflictDoUpdate({ target: schema.user.email, set: { name: demoUsers.admin.name, role: "ADMIN" } })
    .returning({ id: schema.user.id });
  const [customer] = await tx.insert(schema.user)
    .values({ ...demoUsers.customer, role: "USER", emailVerified: now, discountId: loyalDiscountId })
    .onConflictDoUpdate({ target: schema.user.email, set: { name: demoUsers.customer.name, role: "USER", discountId: loyalDiscountId } })
    .returning({ id: schema.user.id });
  await tx.insert(schema.user)
    .values({ ...demoUsers.newStaff, role: "ADMIN", emailVerified: now })
    .onConflictDoUpdate({ target: schema.user.email, set: { name: demoUsers.newStaff.name, role: "ADMIN" } });
  if (!admin || !customer) throw new Error("Could not write the demo users");
  // The demo admin's second factor is an authenticator app whose secret the README publishes, as it publishes the
  // address: a first look at the back office is not blocked, and shows how staff sign in.
  await setConfirmedTotp(tx, admin.id, DEMO_ADMIN_TOTP_SECRET, now);
  await tx.delete(schema.addressBook).where(sql`${schema.addressBook.userId} = ${customer.id}`);
  await insertInChunks(tx, schema.addressBook, customerAddresses.map((address) => ({ ...address, userId: customer.id })));
  log(
    `Users: ${demoUsers.admin.email} (admin, authenticator secret ${DEMO_ADMIN_TOTP_SECRET}), ${demoUsers.newStaff.email} (admin who has not set up a second factor yet), ` +
      `${demoUsers.customer.email} (customer with the "Loyal collector" discount)`,
  );
  return { adminId: admin.id, customerId: customer.id };
}
