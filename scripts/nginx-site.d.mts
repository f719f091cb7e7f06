/** nginx's client_max_body_size: the largest request body the shop takes. */
export declare const CLIENT_MAX_BODY_SIZE: string;

/** The response header nginx adds with what its cache did for the request: HIT, MISS, EXPIRED, UPDATING, BYPASS… */
export declare const CACHE_STATUS_HEADER: string;

export type ShopSiteOptions = {
  /** The page cache's folder (proxy_cache_path). */
  cacheDir: string;
  /** The instances, "10.0.0.11:3000". */
  upstreams: readonly string[];
  /** What follows `listen`: "127.0.0.1:8080", "443 ssl http2". */
  listen: string;
  /** https for `serverName`, with a second server sending plain http there. */
  tls?: { serverName: string; certificate: string; key: string };
  /** The Host the instances get; default `$host`. */
  host?: string;
};

/** The shop's part of nginx's http block: the page cache, the maps that tell what is personal, the instances, the server. */
export declare function shopSite(options: ShopSiteOptions): string;

/** The README's sample configuration. */
export declare function readmeSample(): string;

/** nginx's configuration for `nginx -p <prefix>`: `listen` ("127.0.0.1:8080") in front of `upstreams` ("127.0.0.1:3101"). */
export declare function nginxConfig(options: { prefix: string; listen: string; upstreams: readonly string[] }): string;
