"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Check, PackageOpen, Undo2, X } from "lucide-react";
import { useState } from "react";
import { toast } from "@/components/toast";
import { useConfirm } from "@/components/confirm-dialog";
import { AdminBadge, type AdminBadgeTone } from "@/components/ui/admin-badge";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { AdminTextarea } from "@/components/ui/admin-form-controls";
import { Button } from "@/components/ui/button";
import { formatEuro } from "@/lib/money";
import { useTRPC } from "@/lib/trpc/client";
import type { MarketplaceRequestState, MarketplaceRequestView } from "@/server/marketplace/returns-schemas";
import { CardField } from "../kit/card-field";
import { formatDateTime } from "../kit/format";

const stateLabels: Record<MarketplaceRequestState, { label: string; tone: AdminBadgeTone }> = {
  REQUESTED: { label: "Waiting for your answer", tone: "warning" },
  ACCEPTED: { label: "Accepted", tone: "info" },
  DECLINED: { label: "Declined", tone: "neutral" },
  CLOSED: { label: "Closed on eBay", tone: "neutral" },
};

/**
 * Buyers' returns and cancellations requested on eBay for this order (`admin.ebay.requests.*`), with staff's answers:
 * accept or decline (told to eBay), a return's pieces received back into stock, and its refund through eBay. An
 * accepted cancellation cancels the order and pays everything back, so every other card changes with it.
 */
function useRequestActions(orderNumber: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const onSettled = () =>
    Promise.all(
      [trpc.admin.ebay.requests.pathKey(), trpc.admin.orders.pathKey(), trpc.admin.refunds.pathKey(), trpc.admin.margins.pathKey(), trpc.admin.stock.pathKey(), trpc.admin.product.pathKey()].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey }),
      ),
    );
  const options = { onSettled, meta: { errorToast: { title: "eBay request" } } };
  const decide = useMutation({ ...trpc.admin.ebay.requests.decide.mutationOptions(), ...options });
  const receive = useMutation({ ...trpc.admin.ebay.requests.receive.mutationOptions(), ...options });
  const refund = useMutation({ ...trpc.admin.ebay.requests.refund.mutationOptions(), ...options });
  const done = (title: string) => ({ onSuccess: () => toast.success(title, { description: `Order ${orderNumber}` }) });
  return {
    pending: decide.isPending || receive.isPending || refund.isPending,
    decide: (requestId: number, accept: boolean, comment: string) => decide.mutate({ requestId, accept, comment: comment || undefined }, done(accept ? "Accepted on eBay" : "Declined on eBay")),
    receive: (requestId: number) => receive.mutate({ requestId }, done("Received: back in stock")),
    refund: (requestId: number) => refund.mutate({ requestId }, done("Refunded through eBay")),
  };
}

function RequestEntry({ request, orderNumber }: { request: MarketplaceRequestView; orderNumber: string }) {
  const actions = useRequestActions(orderNumber);
  const [confirm, confirmDialog] = useConfirm();
  const [comment, setComment] = useState("");
  const isReturn = request.kind === "RETURN";
  const state = stateLabels[request.state];
  const pieces = request.lines.map((line) => `${line.quantity} × ${line.productName}`).join(", ");
  const ask = async (title: string, description: string, confirmLabel: string, act: () => void, destructive = false) => {
    if (await confirm({ title, description, confirmLabel, destructive })) act();
  };

  return (
    <li className="space-y-3 px-4 py-3" aria-label={`${isReturn ? "Return" : "Cancellation request"} ${request.marketplaceRequestId}`}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm font-medium">{isReturn ? "Return" : "Cancellation request"}</span>
        <span className="font-mono text-xs text-muted-foreground">{request.marketplaceRequestId}</span>
        <AdminBadge tone={state.tone}>{state.label}</AdminBadge>
        {request.receivedAt ? <AdminBadge tone="success">Received</AdminBadge> : null}
        {request.refundIds.length > 0 ? <AdminBadge tone="success">Refunded</AdminBadge> : null}
      </div>
      <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-2">
        <CardField label="Items">{pieces || (isReturn ? "Not a line of this order" : "The whole order")}</CardField>
        <CardField label="Reason">{request.reason}</CardField>
        {request.requestedRefund ? <CardField label="Buyer expects">{formatEuro(request.requestedRefund)}</CardField> : null}
        <CardField label="Requested">{formatDateTime(request.requestedAt)}</CardField>
        {request.state === "REQUESTED" && request.respondBy ? <CardField label="Answer before">{formatDateTime(request.respondBy)}</CardField> : null}
        {request.receivedAt ? <CardField label="Received">{formatDateTime(request.receivedAt)}</CardField> : null}
        <CardField label="Last seen on eBay">
          <span className="font-mono text-xs">{request.marketplaceState}</span>
        </CardField>
      </dl>
      {request.buyerComment ? <blockquote className="border-l-2 pl-3 text-sm text-muted-foreground italic">“{request.buyerComment}”</blockquote> : null}
      {request.can.decide ? (
        <AdminTextarea aria-label="Message to the buyer" placeholder="Message to the buyer on eBay (optional)" rows={2} maxLength={1000} value={comment} onChange={(event) => setComment(event.target.value)} />
      ) : null}
      <div className="flex flex-wrap gap-2">
        {request.can.decide ? (
          <>
            <Button
              size="sm"
              disabled={actions.pending}
              onClick={() =>
                isReturn
                  ? ask("Accept the return?", "eBay tells the buyer to send the item back.", "Accept return", () => actions.decide(request.id, true, comment))
                  : ask("Accept the cancellation?", "eBay cancels the order; it is cancelled here, its items go back in stock and everything paid is refunded through eBay.", "Cancel and refund", () => actions.decide(request.id, true, comment))
              }
            >
              <Check /> Accept
            </Button>
            <Button
              size="sm"
              variant="outline"
              disabled={actions.pending}
              onClick={() => ask(isReturn ? "Decline the return?" : "Decline the cancellation?", "eBay tells the buyer; they may ask eBay to step in.", "Decline", () => actions.decide(request.id, false, comment), true)}
            >
              <X /> Decline
            </Button>
          </>
        ) : null}
        {request.can.receive ? (
          <Button size="sm" variant="outline" disabled={actions.pending} onClick={() => ask("Mark the return received?", `${pieces} go back in stock.`, "Received", () => actions.receive(request.id))}>
            <PackageOpen /> Received
          </Button>
        ) : null}
        {request.can.refund ? (
          <Button size="sm" variant="outline" disabled={actions.pending} onClick={() => ask("Refund the return through eBay?", `The price paid for ${pieces} goes back to the buyer through eBay.`, "Refund", () => actions.refund(request.id))}>
            <Undo2 /> Refund through eBay
          </Button>
        ) : null}
      </div>
      {confirmDialog}
    </li>
  );
}

/** The card on an eBay order's page; nothing when the buyer asked for nothing. */
export function MarketplaceRequestsCard({ orderNumber }: { orderNumber: string }) {
  const trpc = useTRPC();
  const requests = useQuery(trpc.admin.ebay.requests.forOrder.queryOptions({ orderNumber })).data ?? [];
  if (requests.length === 0) return null;
  const open = requests.filter((request) => request.state === "REQUESTED").length;
  return (
    <AdminCard>
      <AdminCardHeader title="Returns and cancellations on eBay" description={open > 0 ? `${open} waiting for your answer` : `${requests.length} from the buyer`} />
      <ul className="divide-y">
        {requests.map((request) => (
          <RequestEntry key={request.id} request={request} orderNumber={orderNumber} />
        ))}
      </ul>
    </AdminCard>
  );
}
