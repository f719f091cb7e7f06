/**
 * Postcodes of the countries whose format is known, as the address schema checks them (`server/account/schemas.ts`,
 * behind checkout, the address book and manual orders): a postcode a carrier would refuse is caught while the
 * customer can still fix it, and a Dutch one is written as PostNL prints it ("1234 AB"). A country not listed here
 * keeps any postcode, as before.
 */
type PostcodeRule = {
  /** Matched against the postcode in capitals, with spaces and dashes around the parts as people type them. */
  pattern: RegExp;
  /** The postcode as the country writes it, from the pattern's groups. */
  normalise?: (match: RegExpExecArray) => string;
  /** What to type, in the words of the form's message: "Enter a Dutch postcode like 1234 AB". */
  example: string;
};

const digits = (count: number, example: string, name: string): PostcodeRule => ({ pattern: new RegExp(`^(\\d{${count}})$`), normalise: (m) => m[1]!, example: `${name} postcode like ${example}` });

/** The UK's outward and inward codes ("SW1A 1AA", "M1 1AD", "EC1V 9HX"), also for Guernsey, Jersey and the Isle of Man. */
const british: PostcodeRule = {
  pattern: /^([A-Z]{1,2}\d[A-Z\d]?) ?(\d[A-Z]{2})$/,
  normalise: (m) => `${m[1]} ${m[2]}`,
  example: "UK postcode like SW1A 1AA",
};

export const postcodeRules: Readonly<Record<string, PostcodeRule>> = {
  // Four digits, the first not 0, and two letters; PostNL leaves out SA, SD and SS.
  NL: { pattern: /^([1-9]\d{3}) ?(?!SA|SD|SS)([A-Z]{2})$/, normalise: (m) => `${m[1]} ${m[2]}`, example: "Dutch postcode like 1234 AB" },
  BE: digits(4, "1000", "Belgian"),
  LU: { pattern: /^(?:L-?)?(\d{4})$/, normalise: (m) => m[1]!, example: "Luxembourg postcode like 1009" },
  DE: digits(5, "10117", "German"),
  FR: digits(5, "75003", "French"),
  MC: { pattern: /^(980\d{2})$/, normalise: (m) => m[1]!, example: "Monaco postcode like 98000" },
  IT: digits(5, "20121", "Italian"),
  ES: digits(5, "28013", "Spanish"),
  AT: digits(4, "1010", "Austrian"),
  CH: digits(4, "8001", "Swiss"),
  LI: digits(4, "9490", "Liechtenstein"),
  DK: digits(4, "1160", "Danish"),
  NO: digits(4, "0150", "Norwegian"),
  FI: digits(5, "00100", "Finnish"),
  GR: { pattern: /^(\d{3}) ?(\d{2})$/, normalise: (m) => `${m[1]} ${m[2]}`, example: "Greek postcode like 105 57" },
  SE: { pattern: /^(\d{3}) ?(\d{2})$/, normalise: (m) => `${m[1]} ${m[2]}`, example: "Swedish postcode like 111 52" },
  CZ: { pattern: /^(\d{3}) ?(\d{2})$/, normalise: (m) => `${m[1]} ${m[2]}`, example: "Czech postcode like 110 00" },
  SK: { pattern: /^(\d{3}) ?(\d{2})$/, normalise: (m) => `${m[1]} ${m[2]}`, example: "Slovak postcode like 811 01" },
  PL: { pattern: /^(\d{2})-?(\d{3})$/, normalise: (m) => `${m[1]}-${m[2]}`, example: "Polish postcode like 00-372" },
  PT: { pattern: /^(\d{4})-?(\d{3})$/, normalise: (m) => `${m[1]}-${m[2]}`, example: "Portuguese postcode like 1100-148" },
  GB: british,
  GG: british,
  JE: british,
  IM: british,
  US: { pattern: /^(\d{5})(?:-?(\d{4}))?$/, normalise: (m) => (m[2] ? `${m[1]}-${m[2]}` : m[1]!), example: "ZIP code like 94103 or 94103-1234" },
  CA: { pattern: /^([ABCEGHJ-NPRSTVXY]\d[A-Z]) ?(\d[A-Z]\d)$/, normalise: (m) => `${m[1]} ${m[2]}`, example: "Canadian postal code like M5V 2T6" },
  AU: digits(4, "2000", "Australian"),
  JP: { pattern: /^(\d{3})-?(\d{4})$/, normalise: (m) => `${m[1]}-${m[2]}`, example: "Japanese postcode like 104-0061" },
};

export type PostcodeCheck = { ok: true; postcode: string } | { ok: false; message: string };

/**
 * A postcode checked against its country's format: the postcode as the country writes it, or what to type instead.
 * A country without a rule here, or an empty postcode (the schema's "required" says so), passes as typed.
 */
export function checkPostcode(countryCode: string, postcode: string): PostcodeCheck {
  const rule = postcodeRules[countryCode.trim().toUpperCase()];
  const typed = postcode.trim();
  if (!rule || !typed) return { ok: true, postcode: typed };
  const match = rule.pattern.exec(typed.toUpperCase().replace(/\s+/g, " "));
  if (!match) return { ok: false, message: `Enter ${/^[AEIO]/.test(rule.example) ? "an" : "a"} ${rule.example}` };
  return { ok: true, postcode: rule.normalise ? rule.normalise(match) : typed };
}
