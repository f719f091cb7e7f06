import { AppError } from "@/server/errors";

/**
 * What a page's read finds, or null when the service says NOT_FOUND, so that the page answers with Next's 404
 * (`(await foundOrNull(read)) ?? notFound()`) or, in metadata, a "not found" title. Every other error passes on.
 */
export async function foundOrNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") return null;
    throw error;
  }
}
