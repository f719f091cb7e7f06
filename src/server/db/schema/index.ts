// The schema handed to Drizzle: every table, enum and relation of the shop.
export * from "./enums";
export * from "./auth";
export * from "./catalogue";
export * from "./stock";
export * from "./sales";
export * from "./orders";
export * from "./shipping";
export * from "./discounts";
export * from "./logbook";
export * from "./config";
export * from "./search";
export * from "./payments";
export * from "./messaging";
export * from "./marketplace";
export * from "./jobs";
export * from "./marketplace-categories";
