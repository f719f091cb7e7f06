import { AppError } from "@/server/errors";

/**
 * What a read finds, or null when it says NOT_FOUND: a page then answers with Next's 404
 * (`(await foundOrNull(read)) ?? notFound()`) or, in metadata, a "not found" title, and a service decides what a
 * payment its provider does not know means. Every other error passes on.
 */
export async function foundOrNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") return null;
    throw error;
  }
}
