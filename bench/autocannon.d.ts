// autocannon ships no types: the part of its programmatic API (README "API") the benches use.
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  namespace autocannon {
    type RequestParams = { method?: string; path?: string; headers?: Record<string, string>; body?: string };

    type Request = RequestParams & {
      /** Called before each request is sent; answers the request to send. */
      setupRequest?: (request: RequestParams & { path: string }, context: Record<string, unknown>) => RequestParams & { path: string };
      onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string | string[]>) => void;
    };

    type Options = {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      /** Seconds a request may take before it counts as a timeout (and an error). */
      timeout?: number;
      headers?: Record<string, string>;
      requests?: Request[];
    };

    type Histogram = { average: number; mean: number; stddev: number; min: number; max: number; total: number; p50: number; p90: number; p99: number };

    type Result = {
      requests: Histogram;
      latency: Histogram;
      /** Seconds. */
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      statusCodeStats: Record<string, { count: number }>;
    };

    type Instance = EventEmitter & PromiseLike<Result>;
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;

  export default autocannon;
}
