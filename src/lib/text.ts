import { z } from "zod";

/**
 * Text a caller sends that the shop stores, searches or logs. PostgreSQL's text cannot hold the NUL character and
 * its JSON (the logbook's states) cannot hold half of a UTF-16 surrogate pair, so either is a BAD_REQUEST here
 * instead of a database error later (SECURITY-REVIEW M2). Chain the usual checks after it: `text().trim().max(80)`.
 */
export function text() {
  return z.string().refine((value) => !value.includes("\u0000") && value.isWellFormed(), "contains a character that cannot be stored");
}
