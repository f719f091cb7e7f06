/** The shop ships from the Netherlands; most of its collectors are Dutch. */
export const HOME_COUNTRY = "NL";

/**
 * The country a new delivery address starts with, before the buyer chooses (they can always change it). The shop
 * serves Dutch and European collectors, and an Accept-Language region (the guess the visitor token keeps) says which
 * language a browser speaks, not where its owner lives: "en-US" is the default of browsers all over the Netherlands.
 * So the guess counts only when it is an EU country the shop ships to (a German browser starts on Germany);
 * anything else starts on the Netherlands, and on nothing when the shop does not ship there.
 */
export function preselectedCountry(countries: readonly { code: string; eu: boolean }[], guessed: string | null): string {
  const guess = countries.find((country) => country.code === guessed);
  if (guess?.eu) return guess.code;
  return countries.some((country) => country.code === HOME_COUNTRY) ? HOME_COUNTRY : "";
}
