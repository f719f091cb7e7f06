import "server-only";
import pino from "pino";
import { env } from "@/env";

/** Structured server logs, one JSON object per line. Child loggers carry a request id through an API call. */
export const logger = pino({
  level: env.LOG_LEVEL,
  base: { service: "shop", environment: env.ENVIRONMENT },
  timestamp: pino.stdTimeFunctions.isoTime,
  redact: { paths: ["token", "*.token", "headers.cookie", "headers.authorization", "*.password"], remove: true },
});

export type Logger = typeof logger;
