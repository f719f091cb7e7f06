import { defineConfig } from "drizzle-kit";

// Migrations are generated from the schema files and committed; they are applied by
// src/server/db/migrate.ts on start and in tests, never by drizzle-kit at run time.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/server/db/schema",
  out: "./drizzle",
  casing: "snake_case",
});
