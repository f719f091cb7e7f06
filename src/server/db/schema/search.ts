import { pgTable, text } from "drizzle-orm/pg-core";
import { timestamps } from "./columns";

/**
 * Every word of 3+ characters not starting with a digit or a sign that occurs in a product's search text, kept by a
 * trigger on `product` (the `search_terms` migration, widened by `search_speed`); search spells a typed prefix out as
 * the words here that it starts. Typo-tolerant search looks a misspelt word up here ("sieko" is two edits from
 * "seiko") and searches the full-text index for the words it finds; trigram similarity alone misses such
 * transpositions in short words. Words are only added, never removed: a word no product has any more just finds
 * nothing.
 */
export const searchTerm = pgTable("search_term", {
  term: text().primaryKey(),
  /** createdAt is when the word first appeared in the catalogue. */
  ...timestamps,
});
