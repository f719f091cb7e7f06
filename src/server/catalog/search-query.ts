import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";

/** More words than this in one query are ignored; nobody types a paragraph into a shop's search box. */
const MAX_WORDS = 8;
/** Corrections offered per misspelt word, closest first. */
const MAX_CORRECTIONS = 3;
/**
 * Catalogue words a typed word is spelt out into at most; a start shared by more ("sta") is matched as a prefix
 * instead, which is slower but is a query nobody finishes typing.
 */
const MAX_COMPLETIONS = 20;
/** The shortest word looked up in `search_term`, which keeps the catalogue words of at least this many characters. */
const MIN_LOOKED_UP_LENGTH = 3;

/**
 * A visitor's search as words, split the way `to_tsvector('simple', ...)` splits product text: runs of letters and
 * digits, except that a number with a decimal point ("31.5", or a version such as "1.2.3") stays one word, as the
 * parser keeps it. A watch-parts shop is searched by sizes: split into 31 and 5, "crystal 31.5" found nothing. A
 * decimal comma ("4,5", as Dutch visitors write it) is read as the point the catalogue's sizes are written with.
 */
export function queryWords(term: string): string[] {
  const decimalPoints = term.replace(/(\p{N}),(?=\p{N})/gu, "$1.");
  return (decimalPoints.toLowerCase().normalize("NFC").match(/\p{N}+(?:\.\p{N}+)+|[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_WORDS);
}

/**
 * The product a search names by its id, "#15", as staff quote products to each other and to customers (and the
 * address /product/15 shows): that product alone, on the storefront and in the back office. Null for any other search.
 */
export function productIdSearched(term: string): number | null {
  const id = /^#\s*(\d{1,9})$/.exec(term.trim());
  return id ? Number(id[1]) : null;
}

/**
 * Staff's product search as a `to_tsquery` text: every word must start a word of the product's search text (no
 * corrections: staff type what they mean). The product table and the order table's search by product both read it.
 */
export function everyWordStartsQuery(words: string[]): string {
  return words.map((word) => `${word}:*`).join(" & ");
}

/** How many edits a word of this length may be away from a catalogue word: none for short words, two from five letters. */
export function allowedEdits(word: string): number {
  if (word.length <= 3) return 0;
  if (word.length === 4) return 1;
  return 2;
}

/**
 * A catalogue word found for a typed word: one it starts (`completes`; `single` when the full-text parser reads it
 * back as one word, which a hyphenated "pre-owned" is not) or one a few edits away (`distance`, null otherwise).
 */
type TermRow = { word: string; term: string; completes: boolean; single: boolean; distance: number | string | null };

/**
 * The full-text query for a visitor's search, in `to_tsquery` syntax. Every word must match (AND), as a prefix so
 * that results appear while a visitor is still typing ("sei" finds Seiko). A word that is no catalogue word nor the
 * start of one is taken as a misspelling: it also matches the catalogue words (from `search_term`) closest to it
 * by Levenshtein distance with the same first letter, so "sieko" finds Seiko and "omgea" finds Omega. All of it
 * runs in PostgreSQL (PGlite too), in one round trip; the caller matches the result against the product's
 * GIN-indexed tsvector. Returns null when the search has no words.
 *
 * The prefix is spelt out as the catalogue words that start with it ("crown" as crown | crowns): the GIN index
 * intersects exact words by skipping through their lists, while a prefix makes it read every product under each
 * word it covers (all 40 000 crowns for "omega crown") and recheck each row. `search_term` holds every catalogue
 * word of three characters or more that starts with a letter, so the spelt-out words are all there are. A
 * hyphenated word is left out: its product also has the word's first part ("pre" of "pre-owned"), which starts
 * with the same letters. Numbers, words too short to look up and starts shared by too many words stay prefixes.
 */
export async function buildSearchQuery(db: Db, term: string): Promise<string | null> {
  const words = queryWords(term);
  if (words.length === 0) return null;
  const looked = [...new Set(words)].filter((word) => [...word].length >= MIN_LOOKED_UP_LENGTH);
  const completions = new Map<string, string[]>();
  const corrections = new Map<string, string[]>();
  if (looked.length > 0) {
    // Only words of letters are corrected: a caliber number such as 6139 is meant exactly.
    const fuzzy = looked.map((word) => /^\p{L}+$/u.test(word) && allowedEdits(word) > 0);
    const rows = await rawRows<TermRow>(
      db,
      sql`select w.word, t.term, starts_with(t.term, w.word) as completes,
                 numnode(plainto_tsquery('simple', t.term)) = 1 as single,
                 case when w.fuzzy and t.term ~ '^[[:alpha:]]+$' then levenshtein(t.term, w.word) end as distance
          from unnest(array[${sql.join(looked.map((word) => sql`${word}`), sql`, `)}]::text[],
                      array[${sql.join(fuzzy.map((flag) => sql`${flag}`), sql`, `)}]::boolean[]) as w(word, fuzzy)
          join search_term t
            on starts_with(t.term, w.word)
            or (w.fuzzy
                and left(t.term, 1) = left(w.word, 1)
                and length(t.term) between length(w.word) - 2 and length(w.word) + 2
                and t.term ~ '^[[:alpha:]]+$'
                and levenshtein_less_equal(t.term, w.word, 2) <= case when length(w.word) >= 5 then 2 else 1 end)
          order by w.word, distance nulls last, t.term`,
    );
    for (const word of looked) {
      const found = rows.filter((row) => row.word === word);
      const completing = found.filter((row) => row.completes);
      const spelt = completing.filter((row) => row.single).map((row) => row.term);
      if (spelt.length > 0 && spelt.length <= MAX_COMPLETIONS) completions.set(word, spelt);
      if (completing.length > 0) continue;
      // A misspelling: only the closest distance counts ("omgea" is two edits from "omega", so three-edit words are noise).
      const near = found.filter((row) => row.distance !== null);
      const closest = Number(near[0]?.distance);
      corrections.set(
        word,
        near.filter((row) => Number(row.distance) === closest).slice(0, MAX_CORRECTIONS).map((row) => row.term),
      );
    }
  }
  return words
    .map((word) => {
      const alternatives = [...(completions.get(word)?.map(lexeme) ?? [`${lexeme(word)}:*`]), ...(corrections.get(word) ?? []).map(lexeme)];
      return alternatives.length === 1 ? alternatives[0] : `(${alternatives.join(" | ")})`;
    })
    .join(" & ");
}

/** A word as a quoted tsquery lexeme; words hold only letters and digits, but quoting keeps any input inert. */
function lexeme(word: string): string {
  return `'${word.replaceAll("'", "''").replaceAll("\\", "\\\\")}'`;
}

/** The full-text condition and rank for a query made by `buildSearchQuery`. */
export function tsQuery(query: string): SQL {
  return sql`to_tsquery('simple', ${query})`;
}
