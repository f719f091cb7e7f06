import { z } from "zod";

/**
 * A database row's id, as callers send it: a positive whole number that fits PostgreSQL's `integer` (int4). A
 * larger number is a BAD_REQUEST here instead of a database error later (SECURITY-REVIEW M2).
 */
export const rowId = z.number().int().positive().max(2_147_483_647, "is not a known id");
