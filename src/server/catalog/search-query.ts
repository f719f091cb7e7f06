import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { rawRows } from "@/server/db/raw-rows";

/** More words than this in one query are ignored; nobody types a paragraph into a shop's search box. */
const MAX_WORDS = 8;
/** Corrections offered per misspelt word, closest first. */
const MAX_CORRECTIONS = 3;

/** A visitor's search as words, split the way `to_tsvector('simple', ...)` splits product text. */
export function queryWords(term: string): string[] {
  return term
    .toLowerCase()
    .normalize("NFC")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .slice(0, MAX_WORDS);
}

/** How many edits a word of this length may be away from a catalogue word: none for short words, two from five letters. */
export function allowedEdits(word: string): number {
  if (word.length <= 3) return 0;
  if (word.length === 4) return 1;
  return 2;
}

type Correction = { word: string; term: string; distance: number };
type KnownWord = { word: string; known: boolean };

/**
 * The full-text query for a visitor's search, in `to_tsquery` syntax. Every word must match (AND), as a prefix so
 * that results appear while a visitor is still typing ("sei" finds Seiko). A word that is no catalogue word nor the
 * start of one is taken as a misspelling: it also matches the catalogue words (from `search_term`) closest to it
 * by Levenshtein distance with the same first letter, so "sieko" finds Seiko and "omgea" finds Omega. All of it
 * runs in PostgreSQL (PGlite too); the caller matches the result against the product's GIN-indexed tsvector.
 * Returns null when the search has no words.
 */
export async function buildSearchQuery(db: Db, term: string): Promise<string | null> {
  const words = queryWords(term);
  if (words.length === 0) return null;
  // Only words of letters are corrected: a caliber number such as 6139 is meant exactly.
  const fuzzy = [...new Set(words.filter((word) => /^\p{L}+$/u.test(word) && allowedEdits(word) > 0))];
  const corrections = new Map<string, string[]>();
  if (fuzzy.length > 0) {
    const list = sql.join(fuzzy.map((word) => sql`${word}`), sql`, `);
    const [known, candidates] = await Promise.all([
      rawRows<KnownWord>(
        db,
        sql`select w.word, exists (select 1 from search_term t where starts_with(t.term, w.word)) as known
            from unnest(array[${list}]::text[]) as w(word)`,
      ),
      rawRows<Correction>(
        db,
        sql`select w.word, t.term, levenshtein(t.term, w.word) as distance
            from unnest(array[${list}]::text[]) as w(word)
            join search_term t
              on left(t.term, 1) = left(w.word, 1)
             and length(t.term) between length(w.word) - 2 and length(w.word) + 2
             and levenshtein_less_equal(t.term, w.word, 2) <= case when length(w.word) >= 5 then 2 else 1 end
            order by w.word, distance, t.term`,
      ),
    ]);
    const misspelt = new Set(known.filter((row) => !row.known).map((row) => row.word));
    for (const candidate of candidates) {
      if (!misspelt.has(candidate.word)) continue;
      const list = corrections.get(candidate.word) ?? [];
      // Only the closest distance counts: "omgea" is two edits from "omega", so three-edit words are noise.
      const closest = candidates.find((row) => row.word === candidate.word)?.distance;
      if (list.length < MAX_CORRECTIONS && Number(candidate.distance) === Number(closest)) list.push(candidate.term);
      corrections.set(candidate.word, list);
    }
  }
  return words
    .map((word) => {
      const alternatives = [`${lexeme(word)}:*`, ...(corrections.get(word) ?? []).map(lexeme)];
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
