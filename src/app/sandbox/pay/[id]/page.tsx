import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Button } from "@/components/ui/button";
import { env } from "@/env";
import { paymentMethodLabels } from "@/lib/labels";
import { formatEuro } from "@/lib/money";
import { Logo } from "@/features/layout/logo";
import { getDb } from "@/server/db/client";
import { getSandboxCheckout } from "@/server/integrations/payments/sandbox";
import { choosePaymentOutcome } from "./actions";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Sandbox payment", robots: { index: false, follow: false } };

const statusWords: Record<string, string> = {
  paid: "was paid", failed: "failed", canceled: "was cancelled", expired: "has expired", pending: "is pending", authorized: "is authorised",
};

/**
 * The sandbox provider's hosted-payment page (the embedded default's stand-in for Mollie's and PayPal's): the buyer
 * sees what they are paying and chooses how the payment ends, as a tester would with a provider's test mode.
 */
export default async function SandboxPaymentPage({ params }: { params: Promise<{ id: string }> }) {
  if (env.INTEGRATIONS !== "sandbox") notFound();
  const { id } = await params;
  const payment = await getSandboxCheckout(getDb(), id);
  if (!payment) notFound();

  return (
    <main className="flex min-h-dvh items-center justify-center bg-background px-4 py-12">
      <div className="w-full max-w-md">
        <div className="mb-6 flex justify-center">
          <Logo name={env.SHOP_NAME} />
        </div>
        <section aria-labelledby="payment-heading" className="rounded-xl border bg-card p-6 text-card-foreground shadow-sm sm:p-8">
          <p className="text-xs font-medium tracking-widest text-muted-foreground uppercase">Sandbox payment · no real money</p>
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
              <Button asChild variant="outline" className="w-full">
                <a href={payment.redirectUrl}>Back to the shop</a>
              </Button>
            </div>
          )}
        </section>
        <p className="mt-6 text-center text-xs text-muted-foreground">
          This page stands in for the payment provider while the shop runs with sandbox integrations.
        </p>
      </div>
    </main>
  );
}
