import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { Button } from "@/components/ui/button";
import { paymentMethodLabels } from "@/lib/labels";
import { formatEuro } from "@/lib/money";
import { SandboxPage } from "@/features/sandbox/sandbox-page";
import { currentSession } from "@/server/auth/require-session";
import { getDb } from "@/server/db/client";
import { canUseSandboxPages } from "@/server/integrations/sandbox-access";
import { getSandboxCheckout, sandboxOutcomesFor } from "@/server/integrations/payments/sandbox";
import { choosePaymentOutcome } from "./actions";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Sandbox payment", robots: { index: false, follow: false } };

const refundTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "Europe/Amsterdam" });

const statusWords: Record<string, string> = {
  paid: "was paid", failed: "failed", canceled: "was cancelled", expired: "has expired", pending: "is pending", authorized: "is authorised",
};

/**
 * The sandbox provider's hosted-payment page (the embedded default's stand-in for Mollie's and PayPal's): the buyer
 * sees what they are paying and chooses how the payment ends, as a tester would with a provider's test mode.
 * Once the payment is paid it lists the refunds the shop made of it and what is left, as a provider's dashboard
 * would, so a tester (or a browser test) can see what the provider paid back.
 */
export default async function SandboxPaymentPage({ params }: { params: Promise<{ id: string }> }) {
  if (!canUseSandboxPages(await headers(), await currentSession())) notFound();
  const { id } = await params;
  const payment = await getSandboxCheckout(getDb(), id);
  if (!payment) notFound();

  return (
    <SandboxPage label="Sandbox payment · no real money" headingId="payment-heading" standsInFor="the payment provider">
      <h1 id="payment-heading" className="mt-2 font-serif text-2xl font-semibold">
        {payment.description}
      </h1>
      <dl className="mt-6 space-y-3 border-y py-5 text-sm">
        <div className="flex items-baseline justify-between">
          <dt className="text-muted-foreground">Amount</dt>
          <dd className="font-serif text-2xl font-semibold text-primary" data-testid="sandbox-amount">
            {formatEuro(payment.amount)}
          </dd>
        </div>
        <div className="flex justify-between">
          <dt className="text-muted-foreground">Method</dt>
          <dd>{paymentMethodLabels[payment.method as keyof typeof paymentMethodLabels] ?? payment.method}</dd>
        </div>
        <div className="flex justify-between">
          <dt className="text-muted-foreground">Payment</dt>
          <dd className="font-mono text-xs">{payment.id}</dd>
        </div>
      </dl>

      {payment.status === "open" ? (
        <form action={choosePaymentOutcome} className="mt-6 space-y-3">
          <input type="hidden" name="id" value={payment.id} />
          <p className="text-sm text-muted-foreground">Choose how this payment ends. The shop hears about it as it would from the real provider.</p>
          <Button type="submit" name="outcome" value="paid" size="lg" className="w-full">
            Pay {formatEuro(payment.amount)}
          </Button>
          {sandboxOutcomesFor(payment.method).includes("authorized") && (
            // Klarna reserves the money first; the shop captures it, and only then is the order paid.
            <Button type="submit" name="outcome" value="authorized" variant="secondary" size="lg" className="w-full">
              Authorise (pay later)
            </Button>
          )}
          <div className="grid grid-cols-1 gap-2 sm:grid-cols-3">
            <Button type="submit" name="outcome" value="failed" variant="outline">
              Fail payment
            </Button>
            <Button type="submit" name="outcome" value="canceled" variant="outline">
              Cancel payment
            </Button>
            <Button type="submit" name="outcome" value="expired" variant="outline">
              Let it expire
            </Button>
          </div>
        </form>
      ) : (
        <div className="mt-6 space-y-4 text-sm">
          <p>This payment {statusWords[payment.status] ?? `is ${payment.status}`}; there is nothing left to choose.</p>
          {(payment.status === "paid" || payment.refunds.length > 0) && (
            <section aria-labelledby="refunds-heading" data-testid="sandbox-refunds">
              <h2 id="refunds-heading" className="font-medium">
                Refunds
              </h2>
              {payment.refunds.length === 0 ? (
                <p className="mt-2 text-muted-foreground">Nothing has been refunded.</p>
              ) : (
                <ul className="mt-2 divide-y border-y">
                  {payment.refunds.map((refund) => (
                    <li key={refund.id} className="flex items-baseline justify-between gap-4 py-2" data-testid="sandbox-refund">
                      <div>
                        <p className="font-mono text-xs">{refund.id}</p>
                        <p className="text-xs text-muted-foreground">
                          <time dateTime={refund.createdAt.toISOString()}>{refundTime.format(refund.createdAt)}</time>
                        </p>
                      </div>
                      <span className="tabular-nums">{formatEuro(refund.amount)}</span>
                    </li>
                  ))}
                </ul>
              )}
              <dl className="mt-2 flex justify-between">
                <dt className="text-muted-foreground">Left to refund</dt>
                <dd className="tabular-nums" data-testid="sandbox-remaining">
                  {formatEuro(payment.remaining)}
                </dd>
              </dl>
            </section>
          )}
          <Button asChild variant="outline" className="w-full">
            <a href={payment.redirectUrl}>Back to the shop</a>
          </Button>
        </div>
      )}
    </SandboxPage>
  );
}
