/**
 * Whether an error means the database could not be reached or did not answer in time (rather than refusing a
 * statement): the pool gave no connection within its timeout, a statement ran past its own, the connection broke, or
 * the server is shutting down or starting. Such a request is worth trying again in a moment, and the caller is told
 * so (503 with Retry-After) instead of being given an internal error (RELIABILITY-REVIEW D3 and D6).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 10; current = current.cause, depth++) {
    if (unavailableMessages.some((message) => current instanceof Error && current.message.startsWith(message))) return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (networkCodes.has(code) || code.startsWith("08") || serverCodes.has(code))) return true;
  }
  return false;
}

/** What node-postgres and its pool say when they gave up waiting or lost the connection. */
const unavailableMessages = [
  "timeout exceeded when trying to connect",
  "Query read timeout",
  "Connection terminated",
  "Client has encountered a connection error and is not queryable",
];
const networkCodes = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH"]);
/** PostgreSQL's own: a statement cancelled by statement_timeout, and a server shutting down or not yet up. (Class 08 is the connection exceptions.) */
const serverCodes = new Set(["57014", "57P01", "57P02", "57P03"]);
