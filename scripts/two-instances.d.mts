/** Where the script expects Debian's nginx. */
export declare const NGINX: string;

/** Creates the database a PostgreSQL address names when it is missing; true when it did. */
export declare function ensureDatabase(databaseUrl: string): Promise<boolean>;

export type RunningInstance = {
  /** "a" for the first (it migrates and seeds), "b" for the second. */
  name: string;
  port: number;
  /** http://127.0.0.1:<port>, the instance without nginx. */
  url: string;
  /** Everything the instance printed: its pino log, one JSON object a line. */
  logFile: string;
  /** How long it took to answer /api/health with 200. */
  startMs: number;
};

export type TwoInstances = {
  /** nginx's address, the shop's public address (AUTH_URL) for both instances. */
  publicUrl: string;
  instances: [RunningInstance, RunningInstance];
  databaseCreated: boolean;
  dataDir: string;
  redisUrl: string;
  /** nginx's prefix: its configuration, pid and logs, and the instances' logs. */
  workDir: string;
  /** nginx's access log, with the instance (`upstream=`) each request went to. */
  accessLog: string;
  /** Stops nginx, then both instances; removes `workDir` unless `keepFiles`. */
  stop(options?: { keepFiles?: boolean }): Promise<void>;
};

export type TwoInstancesOptions = {
  /** Default: DATABASE_URL (required one way or the other). */
  databaseUrl?: string;
  /** Default: REDIS_URL, else redis://127.0.0.1:6379. */
  redisUrl?: string;
  /** nginx's port; default 8080. */
  port?: number;
  /** Default: 3101 and 3102. */
  instancePorts?: [number, number];
  /** Default: DATA_DIR, else .data. */
  dataDir?: string;
  /** More environment for both instances. */
  env?: Record<string, string>;
  /** Copy the instances' and nginx's output to this process's; default false. */
  echo?: boolean;
};

export declare function startTwoInstances(options?: TwoInstancesOptions): Promise<TwoInstances>;
