import { toast } from "@/components/toast";

/** An order the server left as it was in a bulk action, and why. */
export type Refusal = { orderNumber: string | null; reason: string };

/** What a bulk action did, as one toast: how many went through, and why the others did not (the first few). */
export function reportBulk(done: string, count: number, refused: Refusal[]) {
  if (refused.length === 0) {
    toast.success(done);
    return;
  }
  const reasons = refused.slice(0, 3).map((refusal) => refusal.reason);
  if (refused.length > 3) reasons.push(`… and ${refused.length - 3} more.`);
  const title = count > 0 ? `${done}; ${refused.length} left as they were` : `Nothing changed: ${refused.length === 1 ? "the order was" : `${refused.length} orders were`} refused`;
  toast.warning(title, { description: reasons.join(" ") });
}

/** "1 order", "3 orders". */
export const ordersCount = (count: number) => `${count} order${count === 1 ? "" : "s"}`;
