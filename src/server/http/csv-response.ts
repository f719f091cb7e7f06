import "server-only";

/**
 * A CSV file made for staff (the paid orders, the owner's reports), streamed as its lines are read, a batch at a
 * time, and downloaded; never cached, as it carries customers' names or cost prices.
 */
export function csvResponse(lines: AsyncGenerator<string>, filename: string): Response {
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await lines.next();
      if (next.done) controller.close();
      else controller.enqueue(new TextEncoder().encode(next.value));
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8; header=present",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
