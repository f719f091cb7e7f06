// nginx in front of the shop's instances, written in one place for the two that use it: the sample in the README
// ("Run it on several machines", `readmeSample()`; scripts/nginx-site.test.mjs keeps the README's copy equal to it)
// and the configuration `npm run start:two-instances` writes (scripts/two-instances.mjs).
//
// nginx keeps catalogue pages for the second the shop allows and serves them itself: a cached page is the same bytes
// for every visitor, and nginx sends such bytes tens of times faster than Next renders or even reads them. It keeps
// only what the shop marks for it (scripts/front-door.mjs `settleCaching`: `public` and `X-Accel-Expires`, on a page
// Next serves from its cache to everyone alike) and never anything personal: no answer to a visitor with a session
// or a visitor token, no answer that is `private`, `no-store` or `no-cache`, none that sets a cookie.

/**
 * The largest request the shop takes: an upload of 50 MB of files with 1 MB of multipart framing (UPLOAD_BODY_LIMIT
 * in src/app/api/trpc/[trpc]/route.ts). nginx refuses larger bodies itself, before they reach an instance.
 */
export const CLIENT_MAX_BODY_SIZE = "51m";

/** The response header that says whether nginx's copy served the request (HIT, UPDATING, …; BYPASS when personal). */
export const CACHE_STATUS_HEADER = "X-Cache-Status";

const indent = (text, by) => text.replace(/^(?=.)/gm, " ".repeat(by));

/**
 * The shop's part of nginx's `http` block: the page cache in `cacheDir`, the maps that tell a personal request or
 * answer, the instances (`upstreams`, "10.0.0.11:3000") and the server on `listen`. With `tls` ({ serverName,
 * certificate, key }) it listens with TLS and a second server sends plain http there. `host` is the Host header the
 * instances get: `$host` behind the standard ports, `$http_host` where the port is part of the address.
 */
export function shopSite({ cacheDir, upstreams, listen, tls, host = "$host" }) {
  const server = [
    `listen ${listen};`,
    ...(tls ? [`server_name ${tls.serverName};`, `ssl_certificate     ${tls.certificate};`, `ssl_certificate_key ${tls.key};`] : []),
    "# The largest request the shop takes: an upload of 50 MB of files and the form around them.",
    `client_max_body_size ${CLIENT_MAX_BODY_SIZE};`,
    "",
    "location / {",
    indent(
      [
        "proxy_pass http://shop;",
        "proxy_http_version 1.1;",
        'proxy_set_header Connection "";',
        `proxy_set_header Host ${host};`,
        "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
        "proxy_set_header X-Forwarded-Proto $scheme;",
        "",
        "proxy_cache shop_pages;",
        "# Pages do not depend on the Host a visitor sends (links are built on AUTH_URL): a made-up one makes no new copy.",
        "proxy_cache_key $scheme$proxy_host$request_uri;",
        "# A personal request is always answered by an instance, and what it gets is never kept.",
        "proxy_cache_bypass $shop_session $http_x_token;",
        "proxy_no_cache $shop_session $http_x_token $shop_personal_answer $upstream_http_set_cookie $shop_not_for_the_edge;",
        "# One request refreshes an expired page while the others get the copy (and nobody waits for a page nginx has",
        "# never had longer than the lock). The request that finds the copy expired waits for the new one: served in",
        "# the background instead, the first visitor of a quiet page would get a copy of any age.",
        "proxy_cache_lock on;",
        "proxy_cache_use_stale updating error timeout http_502 http_503 http_504;",
        "proxy_cache_background_update off;",
        `add_header ${CACHE_STATUS_HEADER} $upstream_cache_status always;`,
      ].join("\n"),
      4,
    ),
    "}",
  ];
  const blocks = [
    "# Catalogue pages, kept for less than a second each (scripts/front-door.mjs says how long, in X-Accel-Expires).",
    `proxy_cache_path ${cacheDir} levels=1:2 keys_zone=shop_pages:16m max_size=1g inactive=10m use_temp_path=off;`,
    "",
    "# Auth.js's session cookie (__Secure- on https): a signed-in visitor.",
    "map $http_cookie $shop_session {",
    "    default 0;",
    '    "~(^|;)\\s*(__Secure-)?authjs\\.session-token=" 1;',
    "}",
    "",
    "# An answer for one person only. (A cookie it sets is a condition of its own.)",
    "map $upstream_http_cache_control $shop_personal_answer {",
    "    default 0;",
    '    "~*(private|no-store|no-cache)" 1;',
    "}",
    "",
    "# Only what the shop marks for the edge is kept (public pages carry X-Accel-Expires; nginx does not pass it on).",
    "map $upstream_http_x_accel_expires $shop_not_for_the_edge {",
    '    "" 1;',
    "    default 0;",
    "}",
    "",
    "upstream shop {",
    ...upstreams.map((address) => `    server ${address};`),
    "    keepalive 32;",
    "    # Below Node.js's 5 s, so that nginx never sends a request on a connection the instance is closing.",
    "    keepalive_timeout 4s;",
    "}",
    "",
    "server {",
    indent(server.join("\n"), 4),
    "}",
  ];
  if (tls) blocks.push("", "server {", "    listen 80;", `    server_name ${tls.serverName};`, "    return 301 https://$host$request_uri;", "}");
  return `${blocks.join("\n")}\n`;
}

/** The README's sample: two instances on 10.0.0.11 and 10.0.0.12, https for shop.example.com. */
export function readmeSample() {
  return shopSite({
    cacheDir: "/var/cache/nginx/shop",
    upstreams: ["10.0.0.11:3000", "10.0.0.12:3000"],
    listen: "443 ssl http2",
    tls: { serverName: "shop.example.com", certificate: "/etc/ssl/certs/shop.example.com.pem", key: "/etc/ssl/private/shop.example.com.key" },
  });
}

/**
 * A whole nginx.conf for `nginx -p <prefix>`: every file it writes (pid, logs, the page cache, request bodies waiting
 * for an instance) stays in `prefix`. The shop's part is `shopSite`, as in the README; the instances get the Host
 * with its port, which is part of the local address. X-Forwarded-For goes to the instances, which trust one proxy
 * (TRUSTED_PROXY_HOPS=1), and X-Forwarded-Proto.
 */
export function nginxConfig({ prefix, listen, upstreams }) {
  const file = (name) => JSON.stringify(`${prefix}/${name}`);
  return `# Written by scripts/two-instances.mjs; run as nginx -p ${prefix} -c ${prefix}/nginx.conf
daemon off;
worker_processes 1;
pid ${file("nginx.pid")};
error_log ${file("error.log")} warn;

events {
  worker_connections 1024;
}

http {
  log_format shop '$remote_addr [$time_iso8601] "$request" $status $body_bytes_sent $request_time upstream=$upstream_addr cache=$upstream_cache_status';
  access_log ${file("access.log")} shop;
  client_body_temp_path ${file("temp/body")};
  proxy_temp_path ${file("temp/proxy")};
  fastcgi_temp_path ${file("temp/fastcgi")};
  uwsgi_temp_path ${file("temp/uwsgi")};
  scgi_temp_path ${file("temp/scgi")};
  server_tokens off;

${indent(shopSite({ cacheDir: file("cache"), upstreams, listen, host: "$http_host" }), 2)}}
`;
}
