"use client";

import { Loader2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";

const INTERVAL_MS = 2_000;
// Providers usually confirm within seconds; after this the buyer is told to check back rather than watch a spinner.
const GIVE_UP_AFTER_MS = 3 * 60_000;

/** While an order awaits its payment, reloads the confirmation from the server until the provider's word is in. */
export function PaymentStatusWatcher() {
  const router = useRouter();
  const [gaveUp, setGaveUp] = useState(false);
  useEffect(() => {
    const started = Date.now();
    const timer = window.setInterval(() => {
      if (Date.now() - started > GIVE_UP_AFTER_MS) {
        window.clearInterval(timer);
        setGaveUp(true);
        return;
      }
      router.refresh();
    }, INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [router]);
  if (gaveUp) {
    return <p className="text-sm text-muted-foreground">This takes longer than usual. You will receive an e-mail as soon as your payment is confirmed.</p>;
  }
  return (
    <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
      <Loader2 className="size-4 animate-spin" aria-hidden /> Checking your payment...
    </p>
  );
}
