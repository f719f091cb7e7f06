import { TRPCError } from "@trpc/server";

/** The tRPC error code a call was refused with, or "OK" when it went through; any other failure is rethrown. */
export async function codeOf(call: Promise<unknown> | (() => Promise<unknown>)): Promise<string> {
  try {
    await (typeof call === "function" ? call() : call);
  } catch (error) {
    if (error instanceof TRPCError) return error.code;
    throw error;
  }
  return "OK";
}
