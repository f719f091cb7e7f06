import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { env } from "@/env";
import { OrderConfirmationView } from "@/features/checkout/order-confirmation";
import { currentSession } from "@/server/auth/require-session";
import { getDb } from "@/server/db/client";
import { foundOrNull } from "@/server/http/found-or-null";
import { viewOrderConfirmation } from "@/server/orders/view";

export const metadata: Metadata = { title: "Your order", robots: { index: false, follow: false } };
export const dynamic = "force-dynamic";

/** Where the payment page sends the buyer back to, and the e-mail's link: the order's customer or its token holder. */
export default async function OrderConfirmationRoute({
  params,
  searchParams,
}: {
  params: Promise<{ orderNumber: string }>;
  searchParams: Promise<{ token?: string | string[] }>;
}) {
  const [{ orderNumber }, { token }, session] = await Promise.all([params, searchParams, currentSession()]);
  const order =
    (await foundOrNull(
      viewOrderConfirmation(getDb(), decodeURIComponent(orderNumber), {
        userId: session?.user.id ?? null,
        token: typeof token === "string" ? token : null,
        tokenSecret: env.TOKEN_SECRET,
      }),
    )) ?? notFound();
  return <OrderConfirmationView order={order} signedIn={session !== null} />;
}
