"use client";

import Link from "next/link";
import { AdminBadge } from "@/components/ui/admin-badge";
import { AdminCard, AdminCardHeader } from "@/components/ui/admin-card";
import { AdminSwitch } from "@/components/ui/admin-form-controls";
import { toast } from "@/components/toast";
import { formatEuro } from "@/lib/money";
import type { CustomerDetail } from "@/server/account/customer-admin-schemas";
import { CardField } from "../kit/card-field";
import { formatCount, formatDate, formatDateTime, humanize } from "../kit/format";
import { AdminOrderStatusBadge } from "../orders/order-status";
import { refundReasonLabels, refundStatusLabels, refundStatusTones } from "../refunds/refund-labels";
import { CustomerBadges } from "./customer-badges";
import { CustomerDataRequest } from "./customer-data-request";
import { CustomerNotesCard } from "./customer-notes-card";
import { useCustomer, useSetCustomerVip } from "./queries";

const orderPath = (orderNumber: string) => `/admin/orders/${orderNumber}`;

function Summary({ customer }: { customer: CustomerDetail }) {
  const setVip = useSetCustomerVip();
  const { stats } = customer;
  const vipChangeable = customer.role !== "ADMIN" && !customer.erasedAt;
  return (
    <AdminCard>
      <div className="flex flex-wrap items-start justify-between gap-3 border-b px-4 py-3">
        <div className="min-w-0">
          <h2 className="flex flex-wrap items-center gap-2 font-serif text-lg font-semibold break-words">
            {customer.name ?? customer.email}
            <CustomerBadges role={customer.role} erasedAt={customer.erasedAt} />
          </h2>
          {customer.erasedAt ? (
            <p className="text-sm text-muted-foreground">Personal data erased on request on {formatDate(customer.erasedAt)}; the orders stay for the books.</p>
          ) : (
            <a href={`mailto:${customer.email}`} className="text-sm break-all text-primary hover:underline">
              {customer.email}
            </a>
          )}
        </div>
        {vipChangeable ? (
          <label className="flex items-center gap-2 text-sm">
            <AdminSwitch
              checked={customer.role === "VIP"}
              disabled={setVip.isPending}
              aria-label="VIP customer"
              onCheckedChange={(vip) => setVip.mutate({ userId: customer.id, vip }, { onSuccess: () => toast.success(vip ? "Now a VIP" : "No longer a VIP") })}
            />
            VIP
          </label>
        ) : null}
      </div>
      <dl className="grid gap-x-8 px-4 py-3 sm:grid-cols-2 lg:grid-cols-3">
        <CardField label="Orders">{formatCount(stats.orders)}</CardField>
        <CardField label="Spend">
          <span data-testid="customer-spend">{formatEuro(stats.spend)}</span>
        </CardField>
        <CardField label="Paid / refunded">
          {formatEuro(stats.paid)} / {formatEuro(stats.refunded)}
        </CardField>
        <CardField label="Last order">{stats.lastOrderAt ? formatDate(stats.lastOrderAt) : "—"}</CardField>
        <CardField label="Joined">{formatDate(customer.joinedAt)}</CardField>
        <CardField label="Signs in with">{["e-mail link", ...customer.signInMethods.filter((method) => method !== "email").map(humanize)].join(", ")}</CardField>
        <CardField label="Personal discount">
          {customer.discount ? (
            <Link href={`/admin/discounts/manage/${customer.discount.id}`} className="hover:text-primary hover:underline">
              {customer.discount.name} ({customer.discount.label})
            </Link>
          ) : (
            "None"
          )}
        </CardField>
      </dl>
    </AdminCard>
  );
}

function Orders({ customer }: { customer: CustomerDetail }) {
  return (
    <AdminCard>
      <AdminCardHeader title="Orders" description={customer.orders.length ? `${formatCount(customer.orders.length)} placed with their account` : "None yet"} />
      <ul className="divide-y" aria-label="Their orders">
        {customer.orders.map((order) => (
          <li key={order.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2.5 text-sm">
            <Link href={orderPath(order.orderNumber)} className="font-medium hover:text-primary hover:underline">
              {order.orderNumber}
            </Link>
            <span className="text-xs text-muted-foreground">{formatDateTime(order.createdAt)}</span>
            <AdminOrderStatusBadge status={order.status} />
            <span className="ml-auto text-right tabular-nums">
              {order.total ? formatEuro(order.total) : "—"}
              {order.refunded.isZero() ? null : <span className="block text-[11px] text-muted-foreground">−{formatEuro(order.refunded)} refunded</span>}
            </span>
          </li>
        ))}
      </ul>
    </AdminCard>
  );
}

function Refunds({ customer }: { customer: CustomerDetail }) {
  if (customer.refunds.length === 0) return null;
  return (
    <AdminCard>
      <AdminCardHeader title="Refunds" />
      <ul className="divide-y">
        {customer.refunds.map((one) => (
          <li key={one.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2.5 text-sm">
            <Link href={orderPath(one.orderNumber)} className="font-medium hover:text-primary hover:underline">
              {one.orderNumber}
            </Link>
            <span className="text-xs text-muted-foreground">
              {formatDate(one.createdAt)} · {refundReasonLabels[one.reason]}
              {one.comment ? ` · ${one.comment}` : ""}
            </span>
            <AdminBadge tone={refundStatusTones[one.status]}>{refundStatusLabels[one.status]}</AdminBadge>
            <span className="ml-auto tabular-nums">{formatEuro(one.amount)}</span>
          </li>
        ))}
      </ul>
    </AdminCard>
  );
}

function Addresses({ customer }: { customer: CustomerDetail }) {
  return (
    <AdminCard>
      <AdminCardHeader title="Address book" description={customer.addresses.length ? undefined : "No saved addresses"} />
      <ul className="divide-y text-sm">
        {customer.addresses.map((address) => (
          <li key={address.id} className="space-y-0.5 px-4 py-3">
            <p className="font-medium">
              {address.firstName} {address.lastName}
              {address.isDefault ? <AdminBadge className="ml-2">Default</AdminBadge> : null}
            </p>
            {address.companyName ? <p>{address.companyName}</p> : null}
            <p>
              {address.street} {address.houseNumber}
              {address.addressLine2 ? `, ${address.addressLine2}` : ""}
            </p>
            <p>
              {address.postCode} {address.city}
              {address.state ? `, ${address.state}` : ""}, {address.country}
            </p>
            {address.phoneNumber ? <p className="text-muted-foreground">{address.phoneNumber}</p> : null}
          </li>
        ))}
      </ul>
    </AdminCard>
  );
}

function Logbook({ customer }: { customer: CustomerDetail }) {
  return (
    <AdminCard>
      <AdminCardHeader title="Logbook" description="Changes to their account and what they changed themselves, newest first" />
      <ul className="divide-y text-sm" aria-label="Logbook about the customer">
        {customer.logbook.length === 0 ? <li className="px-4 py-3 text-muted-foreground">Nothing logged yet.</li> : null}
        {customer.logbook.map((entry) => (
          <li key={entry.id} className="px-4 py-2.5">
            <p className="break-words">{entry.description}</p>
            <p className="text-[11px] text-muted-foreground">
              {formatDateTime(entry.createdAt)} · {humanize(entry.eventType)}
              {entry.by ? ` · by ${entry.by}` : ""}
            </p>
          </li>
        ))}
      </ul>
    </AdminCard>
  );
}

export function CustomerPage({ userId }: { userId: string }) {
  const customer = useCustomer(userId);
  if (customer.isPending) return <div className="h-40 animate-pulse rounded-lg bg-muted" />;
  if (!customer.data) {
    return (
      <AdminCard className="px-4 py-10 text-center text-sm text-muted-foreground">
        {customer.error?.message ?? "That customer does not exist."}{" "}
        <Link href="/admin/customers" className="text-primary hover:underline">
          Back to the customers
        </Link>
      </AdminCard>
    );
  }
  const data = customer.data;
  return (
    <div className="space-y-4">
      <Summary customer={data} />
      {/* On a phone the note, addresses and data requests come before the long logbook; beside it on a wide screen. */}
      <div className="grid gap-4 lg:grid-cols-3 lg:grid-rows-[auto_1fr] lg:items-start">
        <div className="min-w-0 space-y-4 lg:col-span-2">
          <Orders customer={data} />
          <Refunds customer={data} />
        </div>
        <div className="min-w-0 space-y-4 lg:row-span-2">
          {data.erasedAt ? null : <CustomerNotesCard customer={data} />}
          <Addresses customer={data} />
          <CustomerDataRequest customer={data} />
        </div>
        <div className="min-w-0 lg:col-span-2">
          <Logbook customer={data} />
        </div>
      </div>
    </div>
  );
}
