/** One fault the shop must ride out: what it injects, and whether what a user would meet held (with its figures). */
export type FaultScenario = {
  name: string;
  description: string;
  run: () => Promise<{ pass: boolean; figures: Record<string, string | number> }>;
};

/** A request's answer and how long it took; status 0 when it got none (a timeout of the bench's own). */
export async function timedFetch(url: string, init: RequestInit = {}, limitMs = 60_000): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(limitMs) });
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
