import { CheckCircle2 } from "lucide-react";
import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Button } from "@/components/ui/button";
import { env } from "@/env";
import { formatEuro } from "@/lib/money";
import { BuyerRequests } from "@/features/sandbox/ebay/buyer-requests";
import { MarketplaceFrame, sandboxMarketplacePath } from "@/features/sandbox/ebay/marketplace-frame";
import { currentSession } from "@/server/auth/require-session";
import { getDb } from "@/server/db/client";
import { sandboxRequestsOfOrder } from "@/server/integrations/marketplace/sandbox-requests";
import { getSandboxOrder } from "@/server/integrations/marketplace/sandbox-store";
import { canUseSandboxPages } from "@/server/integrations/sandbox-access";
import { askCancellation, askReturn } from "./actions";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Sandbox marketplace order", robots: { index: false, follow: false } };

/** The buyer's confirmation of a sandbox marketplace purchase, with eBay's order number. */
export default async function SandboxMarketplaceOrderPage({ params, searchParams }: { params: Promise<{ orderId: string }>; searchParams: Promise<{ notified?: string; request?: string }> }) {
  if (!canUseSandboxPages(await headers(), await currentSession())) notFound();
  const [{ orderId }, { notified, request }] = await Promise.all([params, searchParams]);
  const order = await getSandboxOrder(getDb(), orderId);
  if (!order) notFound();
  const requests = await sandboxRequestsOfOrder(getDb(), orderId);
  const { shipTo } = order;

  return (
    <MarketplaceFrame shopName={env.SHOP_NAME}>
      <section aria-labelledby="order-heading" className="mx-auto max-w-xl rounded-xl border bg-card p-6 shadow-sm sm:p-8">
        <p className="flex items-center gap-2 text-sm font-medium text-primary">
          <CheckCircle2 className="size-5" aria-hidden />
          Order placed and paid
        </p>
        <h1 id="order-heading" className="mt-2 font-serif text-2xl font-semibold">
          Thank you, {shipTo.fullName}
        </h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Order number <span className="font-mono text-foreground" data-testid="sandbox-order-id">{order.orderId}</span>
        </p>
        <ul className="mt-5 divide-y border-y text-sm">
          {order.lines.map((line, index) => (
            <li key={line.lineItemId} className="flex items-baseline justify-between gap-4 py-3">
              <Link href={`${sandboxMarketplacePath}/${order.listingIds[index]}`} className="hover:underline">
                {line.quantity} × {line.title}
              </Link>
              <span className="tabular-nums">{formatEuro(line.lineItemCost)}</span>
            </li>
          ))}
        </ul>
        <dl className="mt-3 space-y-1 text-sm">
          <div className="flex justify-between">
            <dt className="text-muted-foreground">Postage</dt>
            <dd>{order.deliveryCost.isZero() ? "Free" : formatEuro(order.deliveryCost)}</dd>
          </div>
          <div className="flex justify-between font-medium">
            <dt>Total</dt>
            <dd className="font-serif text-lg text-primary">{formatEuro(order.total)}</dd>
          </div>
        </dl>
        <div className="mt-5 text-sm">
          <h2 className="font-medium">Sent to</h2>
          <address className="mt-1 text-muted-foreground not-italic">
            {shipTo.fullName}
            <br />
            {shipTo.addressLine1}
            <br />
            {shipTo.postalCode} {shipTo.city}, {shipTo.countryCode}
            <br />
            {shipTo.email}
          </address>
        </div>
        <p className="mt-5 rounded-md bg-muted p-3 text-xs text-muted-foreground" role={notified === "0" ? "status" : undefined}>
          {notified === "0"
            ? `${env.SHOP_NAME} could not be told of this order just now; it will find it on its next check of the marketplace, within a minute or two.`
            : `${env.SHOP_NAME} has been told of this order, as eBay would tell it.`}
        </p>
        <BuyerRequests
          orderId={order.orderId}
          lines={order.lines.map((line) => ({ lineItemId: line.lineItemId, title: line.title, quantity: line.quantity }))}
          shipped={order.fulfillmentStatus !== "NOT_STARTED"}
          cancelled={order.cancelled}
          requests={requests.map((entry) => ({ kind: entry.kind, requestId: entry.requestId, marketplaceState: entry.marketplaceState, reason: entry.reason }))}
          outcome={request ?? null}
          askReturn={askReturn}
          askCancellation={askCancellation}
        />
        <Button asChild variant="outline" className="mt-5 w-full">
          <Link href={sandboxMarketplacePath}>Back to the listings</Link>
        </Button>
      </section>
    </MarketplaceFrame>
  );
}
