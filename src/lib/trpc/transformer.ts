import superjson from "superjson";
import { withMoney } from "@/lib/money-json";

// The API's format on both sides. Server code outside the API keeps its own instance (src/server/cache/catalogue.ts):
// Next bundles server code in several layers, each with its own copy of decimal.js, and a registration from another
// layer on this shared instance would revive the API's money as Decimals its schemas do not recognise.
export const transformer = withMoney(superjson);
