import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { applyEmbeddedDefaults } from "../../src/server/config/embedded-defaults";

// Runs before every unit and integration test file, ahead of its imports, so that `src/env.ts` validates.
// vitest.config.ts points DATA_DIR at a temporary folder made once per run (with its generated secrets); the fallback
// only matters when this file is used by a config that did not.
process.env.DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), "shop-test-"));
// A developer's own DATABASE_URL must never reach the code under test: tests get their database from
// tests/helpers/test-database.ts (PGlite, or a fresh database on TEST_DATABASE_URL's server).
delete process.env.DATABASE_URL;
applyEmbeddedDefaults();
