/**
 * A customs description in the carrier's lines of `width` characters, at most `lines` of them, broken between words
 * (a word longer than a line is cut): a customs officer reads "Wrist-watch, automatic: Seiko 5", not "…Seiko 5 SN".
 */
export function customsTextLines(text: string, width: number, lines: number): string[] {
  const result: string[] = [];
  let current = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = current ? `${current} ${word}` : word;
    if (next.length <= width) {
      current = next;
      continue;
    }
    if (current) result.push(current);
    if (result.length === lines) return result;
    current = word.slice(0, width);
  }
  if (current && result.length < lines) result.push(current);
  return result;
}
