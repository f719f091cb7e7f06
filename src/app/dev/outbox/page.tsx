import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { currentSession } from "@/server/auth/require-session";
import { getDb } from "@/server/db/client";
import { isMailSandbox } from "@/server/integrations/mail/mail";
import { listOutbox } from "@/server/integrations/mail/sandbox";
import { canUseSandboxPages } from "@/server/integrations/sandbox-access";

export const metadata: Metadata = { title: "Mail outbox", robots: { index: false } };
export const dynamic = "force-dynamic";

const time = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium" });

/**
 * The sandbox outbox: every e-mail the shop would have sent, newest first, so a person can click a sign-in link
 * without a mail server. Only for a developer on this machine or staff (canUseSandboxPages), and mail to staff only
 * for staff; not found whenever real mail is configured.
 */
export default async function OutboxPage({ searchParams }: { searchParams: Promise<{ to?: string }> }) {
  const session = await currentSession();
  if (!isMailSandbox() || !canUseSandboxPages(await headers(), session)) notFound();
  const { to } = await searchParams;
  const messages = await listOutbox(getDb(), { to, limit: 30, withStaffMail: session?.user.role === "ADMIN" });
  return (
    <main className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-10">
      <header>
        <p className="text-sm font-medium tracking-widest text-primary uppercase">Development</p>
        <h1 className="font-serif text-3xl font-semibold">Mail outbox</h1>
        <p className="text-sm text-muted-foreground">
          The sandbox keeps every e-mail here instead of sending it{to ? `; showing mail to ${to}` : ""}. Newest first.
        </p>
      </header>
      {messages.length === 0 ? <p className="rounded-lg border border-dashed p-8 text-center text-muted-foreground">No e-mails yet.</p> : null}
      {messages.map((message) => (
        <article key={message.id} className="overflow-hidden rounded-xl border bg-card" data-testid="outbox-message" data-to={message.to}>
          <header className="flex flex-wrap items-baseline justify-between gap-2 border-b px-4 py-3 text-sm">
            <div>
              <p className="font-medium">{message.subject}</p>
              <p className="text-muted-foreground">
                To {message.to} · from {message.from}
              </p>
            </div>
            <time className="text-xs text-muted-foreground">{time.format(message.createdAt)}</time>
          </header>
          {message.links.length > 0 ? (
            <ul className="flex flex-col gap-1 border-b bg-accent/30 px-4 py-2 text-sm">
              {message.links.map((link) => (
                <li key={link} className="truncate">
                  <a href={link} className="font-medium text-primary underline-offset-4 hover:underline" data-testid="outbox-link">
                    Open the {message.kind} link
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
          <iframe title={`E-mail: ${message.subject}`} srcDoc={message.html} sandbox="" className="h-[28rem] w-full bg-white" />
          <details className="border-t px-4 py-2 text-sm">
            <summary className="cursor-pointer text-muted-foreground">Plain text</summary>
            <pre className="mt-2 overflow-x-auto text-xs whitespace-pre-wrap">{message.text}</pre>
          </details>
        </article>
      ))}
    </main>
  );
}
