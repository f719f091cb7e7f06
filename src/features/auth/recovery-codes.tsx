"use client";

import { Copy, Download, KeyRound } from "lucide-react";
import { toast } from "@/components/toast";
import { Button } from "@/components/ui/button";

/**
 * Recovery codes, shown once: each stands in for a lost passkey or phone, one time. The person copies or downloads
 * them, and says they did before going on.
 */
export function RecoveryCodes({ codes, shopName, email, onDone, doneLabel }: { codes: string[]; shopName: string; email: string; onDone: () => void; doneLabel: string }) {
  const text = [`${shopName}: recovery codes for ${email}`, "Each code works once, in place of your passkey or authenticator app.", "", ...codes, ""].join("\n");
  return (
    <div className="flex flex-col gap-4" data-testid="recovery-codes">
      <div className="flex items-start gap-3 rounded-md border border-primary/30 bg-accent/50 p-3 text-sm">
        <KeyRound className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
        <p>Keep these somewhere safe, away from your phone or computer. Each works once if you lose your passkey or app. They are not shown again.</p>
      </div>
      <ol className="grid grid-cols-2 gap-2 rounded-md border bg-muted/40 p-4 font-mono text-sm">
        {codes.map((code) => (
          <li key={code} className="tracking-wider">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="outline"
          onClick={() =>
            void navigator.clipboard.writeText(text).then(
              () => toast.success("Copied", { description: "The recovery codes are on your clipboard." }),
              () => toast.error("Error", { description: "Your browser would not copy them; download them instead." }),
            )
          }
        >
          <Copy className="size-4" aria-hidden /> Copy
        </Button>
        <Button type="button" variant="outline" asChild>
          <a href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`} download={`${shopName.replace(/\W+/g, "-").toLowerCase()}-recovery-codes.txt`}>
            <Download className="size-4" aria-hidden /> Download
          </a>
        </Button>
      </div>
      <Button type="button" onClick={onDone}>
        {doneLabel}
      </Button>
    </div>
  );
}
