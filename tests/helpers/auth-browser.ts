import type { Db } from "@/server/db/client";
import { readSession } from "@/server/auth/session";

type AuthHandlers = { GET: (request: Request) => Promise<Response>; POST: (request: Request) => Promise<Response> };

/**
 * A browser talking to the shop's /api/auth handlers in a test: a cookie jar and a network address, which the
 * shop's front door (scripts/serve.mjs) reports in x-shop-client whatever X-Forwarded-For the browser sends.
 */
export class AuthBrowser {
  cookies = new Map<string, string>();

  constructor(
    private readonly shop: { handlers: () => AuthHandlers; origin: string; db: () => Db },
    readonly ip = "198.51.100.7",
  ) {}

  headers(extra: Record<string, string> = {}): Headers {
    const headers = new Headers({ host: new URL(this.shop.origin).host, ...extra, "x-shop-client": this.ip });
    if (this.cookies.size) headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    return headers;
  }

  keep(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...value] = pair!.split("=");
      if (/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value.join("="));
    }
    return response;
  }

  async get(url: string): Promise<Response> {
    return this.keep(await this.shop.handlers().GET(new Request(new URL(url, this.shop.origin), { headers: this.headers() })));
  }

  /** A POST as Auth.js's browser client sends it (with the CSRF token, answering with JSON), as a form or as JSON. */
  async post(path: string, form: Record<string, string>, options: { json?: boolean; headers?: Record<string, string> } = {}): Promise<Response> {
    const csrf = (await (await this.get("/api/auth/csrf")).json()) as { csrfToken: string };
    const fields = { ...form, csrfToken: csrf.csrfToken };
    const request = new Request(new URL(path, this.shop.origin), {
      method: "POST",
      body: options.json ? JSON.stringify(fields) : new URLSearchParams(fields),
      headers: this.headers({
        "content-type": options.json ? "application/json" : "application/x-www-form-urlencoded",
        "x-auth-return-redirect": "1",
        ...options.headers,
      }),
    });
    return this.keep(await this.shop.handlers().POST(request));
  }

  async session() {
    return readSession(this.shop.db(), this.headers());
  }
}
