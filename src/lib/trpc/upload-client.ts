"use client";

import { createTRPCClient, httpLink } from "@trpc/client";
import { useState } from "react";
import type { AppRouter } from "@/server/root";
import { transformer } from "./transformer";

/**
 * A client for file uploads: multipart form data cannot ride in a batched JSON request, so uploads go one per
 * request through httpLink (tRPC's documented way to send FormData), to the same admin procedures.
 */
export function useUploadClient() {
  const [client] = useState(() => createTRPCClient<AppRouter>({ links: [httpLink({ url: "/api/trpc", transformer })] }));
  return client;
}
