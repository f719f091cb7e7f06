import { integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "./columns";
import { configParamKey } from "./enums";

/** Settings staff can change at run time (exchange rate, banner text, marketplace tokens), one row per key. */
export const configParams = pgTable(
  "config_params",
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    param: configParamKey().notNull(),
    value: text().notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("config_params_param_unique").on(t.param)],
);
