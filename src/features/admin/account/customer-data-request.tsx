"use client";

import { Download, Eraser } from "lucide-react";
import { useState } from "react";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { AdminDialog, AdminDialogClose, AdminDialogContent, AdminDialogTrigger } from "@/components/ui/admin-dialog";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/toast";
import type { CustomerDetail } from "@/server/account/customer-admin-schemas";
import { useEraseCustomer, useExportCustomerData } from "./queries";

/** Hands the browser a JSON document to save, named for the customer and the day. */
function saveJson(document: unknown, filename: string) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(document, null, 2)], { type: "application/json" }));
  const link = Object.assign(window.document.createElement("a"), { href: url, download: filename });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * A customer's requests about their data (GDPR): a copy of everything the shop holds on them, and its erasure, which
 * asks first in a dialog that says what goes and what stays. Staff accounts cannot be erased here.
 */
export function CustomerDataRequest({ customer }: { customer: CustomerDetail }) {
  const exportData = useExportCustomerData();
  const erase = useEraseCustomer();
  const [open, setOpen] = useState(false);

  const download = () =>
    exportData.mutate(
      { userId: customer.id },
      { onSuccess: (document) => saveJson(document, `customer-${customer.id}-${new Date().toISOString().slice(0, 10)}.json`) },
    );
  const confirmErase = () =>
    erase.mutate(
      { userId: customer.id },
      {
        onSuccess: (outcome) => {
          setOpen(false);
          toast.success("Personal data erased", {
            description: `${outcome.addressesDeleted} addresses deleted; ${outcome.ordersKeptWithInvoiceAddress + outcome.ordersStripped} orders kept for the books.`,
          });
        },
      },
    );

  return (
    <AdminCard>
      <AdminCardHeader title="Data requests (GDPR)" description="When the customer asks for their data or its erasure" />
      <div className="space-y-3 px-4 py-3 text-sm">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-muted-foreground">Everything we hold on them, as a JSON file.</p>
          <Button size="sm" variant="outline" disabled={exportData.isPending} onClick={download}>
            <Download /> Export their data
          </Button>
        </div>
        {customer.erasedAt ? null : customer.role === "ADMIN" ? (
          <p className="text-muted-foreground">This is a staff account: it is not erased as a customer.</p>
        ) : (
          <AdminDialog open={open} onOpenChange={setOpen}>
            <div className="flex flex-wrap items-center justify-between gap-2 border-t pt-3">
              <p className="text-muted-foreground">Erase their personal data for good.</p>
              <AdminDialogTrigger asChild>
                <Button size="sm" variant="destructive">
                  <Eraser /> Erase…
                </Button>
              </AdminDialogTrigger>
            </div>
            <AdminDialogContent title={`Erase the data of ${customer.name ?? customer.email}?`} description="This cannot be undone.">
              <div className="space-y-2 text-sm">
                <p>
                  <span className="font-medium">Goes:</span> their name and e-mail address (replaced by a placeholder), address book, cart, sign-in methods and
                  sessions (they are signed out), staff&apos;s note and tags, their VIP status and personal discount; on their orders, the e-mail address, phone
                  number and the e-mails we sent.
                </p>
                <p>
                  <span className="font-medium">Stays, for the books (7 years):</span> their orders with lines, payments and refunds; the name and address
                  printed on invoices already issued, and the country of the others.
                </p>
                <p className="text-muted-foreground">An order still open must be shipped or cancelled first. They can sign up again later with the same address.</p>
              </div>
              <div className="mt-4 flex justify-end gap-2">
                <AdminDialogClose asChild>
                  <Button variant="outline">Keep their data</Button>
                </AdminDialogClose>
                <Button variant="destructive" disabled={erase.isPending} onClick={confirmErase}>
                  <Eraser /> Erase their data
                </Button>
              </div>
            </AdminDialogContent>
          </AdminDialog>
        )}
      </div>
    </AdminCard>
  );
}
