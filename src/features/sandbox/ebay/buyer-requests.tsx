import { Button } from "@/components/ui/button";

/**
 * The buyer's returns and cancellations on a sandbox marketplace order, as on eBay's "Return this item" and "Cancel
 * this order": what was asked so far, and the forms to ask. Plain forms posting to server actions, so they work
 * without the page's JavaScript; the marketplace refuses what eBay refuses and the page says why.
 */

export type BuyerRequestEntry = { kind: "RETURN" | "CANCELLATION"; requestId: string; marketplaceState: string; reason: string };
type Line = { lineItemId: string; title: string; quantity: number };

const returnReasons = [
  ["NO_LONGER_NEED_ITEM", "I no longer need it"],
  ["NOT_AS_DESCRIBED", "Not as described"],
  ["ARRIVED_DAMAGED", "Arrived damaged"],
  ["DEFECTIVE_ITEM", "Does not work"],
  ["WRONG_ITEM", "Wrong item sent"],
  ["ORDERED_BY_MISTAKE", "Ordered by mistake"],
] as const;
const cancelReasons = [
  ["BUYER_CANCEL_ORDER", "I changed my mind"],
  ["ORDER_MISTAKE", "Ordered by mistake"],
  ["WONT_ARRIVE_IN_TIME", "It will not arrive in time"],
  ["FOUND_CHEAPER_PRICE", "I found it cheaper"],
] as const;

const field = "mt-1 w-full rounded-md border bg-background px-3 py-2 text-sm";

export function BuyerRequests(props: {
  orderId: string;
  lines: Line[];
  shipped: boolean;
  cancelled: boolean;
  requests: BuyerRequestEntry[];
  /** What the last request came to: "return", "cancellation", or "refused:<why>". */
  outcome: string | null;
  askReturn: (formData: FormData) => Promise<void>;
  askCancellation: (formData: FormData) => Promise<void>;
}) {
  const { orderId, lines, shipped, cancelled, requests, outcome } = props;
  const refused = outcome?.startsWith("refused:") ? outcome.slice("refused:".length) : null;
  return (
    <section id="requests" aria-labelledby="requests-heading" className="mt-6 border-t pt-5 text-sm">
      <h2 id="requests-heading" className="font-medium">
        Returns and cancellation
      </h2>
      {outcome ? (
        <p role="status" className={`mt-2 rounded-md p-3 ${refused ? "bg-destructive/10 text-destructive" : "bg-muted"}`}>
          {refused ?? (outcome === "return" ? "Your return request was sent to the seller." : "Your cancellation request was sent to the seller.")}
        </p>
      ) : null}
      {requests.length > 0 ? (
        <ul className="mt-2 space-y-1">
          {requests.map((request) => (
            <li key={request.requestId} className="flex justify-between gap-4">
              <span>
                {request.kind === "RETURN" ? "Return" : "Cancellation"} <span className="font-mono text-xs">{request.requestId}</span> ({request.reason})
              </span>
              <span className="font-mono text-xs text-muted-foreground">{request.marketplaceState}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {cancelled ? (
        <p className="mt-2 text-muted-foreground">This order was cancelled.</p>
      ) : shipped ? (
        <form action={props.askReturn} className="mt-3 space-y-2">
          <input type="hidden" name="orderId" value={orderId} />
          <label className="block">
            Item
            <select name="lineItemId" className={field}>
              {lines.map((line) => (
                <option key={line.lineItemId} value={line.lineItemId}>
                  {line.quantity} × {line.title}
                </option>
              ))}
            </select>
          </label>
          <div className="grid gap-2 sm:grid-cols-2">
            <label className="block">
              Pieces
              <input name="quantity" type="number" min={1} defaultValue={1} className={field} />
            </label>
            <label className="block">
              Why
              <select name="reason" className={field}>
                {returnReasons.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <label className="block">
            Message to the seller
            <textarea name="comment" rows={2} maxLength={1000} className={field} />
          </label>
          <Button type="submit" variant="outline" className="w-full">
            Return this item
          </Button>
        </form>
      ) : (
        <form action={props.askCancellation} className="mt-3 space-y-2">
          <input type="hidden" name="orderId" value={orderId} />
          <label className="block">
            Why
            <select name="reason" className={field}>
              {cancelReasons.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <Button type="submit" variant="outline" className="w-full">
            Ask the seller to cancel this order
          </Button>
        </form>
      )}
    </section>
  );
}
