import { notFound } from "next/navigation";
import { Suspense } from "react";
import { LogbookView } from "@/features/admin/logbook/logbook-view";

const levels = { info: "INFO", warning: "WARNING", error: "ERROR" } as const;

export const metadata = { title: "Logbook" };

export default async function LogbookPage({ params }: { params: Promise<{ level: string }> }) {
  const { level } = await params;
  if (!(level in levels)) notFound();
  const severity = levels[level as keyof typeof levels];
  return (
    <Suspense>
      <LogbookView key={severity} level={severity} />
    </Suspense>
  );
}
