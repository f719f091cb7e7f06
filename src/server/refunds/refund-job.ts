import "server-only";
import { z } from "zod";
import { rowId } from "@/lib/id";
import { defineJob, type JobDefinition } from "@/server/jobs/define";

const oneRefund = z.object({ refundId: rowId });
type OneRefund = z.infer<typeof oneRefund>;

/**
 * A job on one refund, queued with its id: sending it to the provider, e-mailing the customer. A try is one provider
 * call or one e-mail, so two minutes is long past one that hangs.
 */
export function defineRefundJob(definition: Omit<JobDefinition<OneRefund>, "schema" | "expireInSeconds">): JobDefinition<OneRefund> {
  return defineJob({ ...definition, schema: oneRefund, expireInSeconds: 120 });
}
