/** The options of `npm run db:seed`. */
export type SeedArguments = { products?: number; images?: number; ifEmpty: boolean; help: boolean };

export const seedUsage = `Usage: npm run db:seed -- [--if-empty] [--products N] [--images N]

  (default)      replace the catalogue and demo data with a fresh demo shop
  --if-empty     seed only when the database has no products yet
  --products N   how many products (300 by default; 100000 for the benchmark)
  --images N     draw pictures for the first N products (300 by default)`;

export function parseSeedArguments(argv: readonly string[]): SeedArguments {
  const parsed: SeedArguments = { ifEmpty: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i] ?? "";
    const [flag, inline] = argument.includes("=") ? [argument.slice(0, argument.indexOf("=")), argument.slice(argument.indexOf("=") + 1)] : [argument, undefined];
    const value = () => {
      const text = inline ?? argv[++i];
      const number = Number(text?.replaceAll("_", ""));
      if (text === undefined || !Number.isInteger(number) || number < 0) throw new Error(`${flag} needs a whole number, got ${text ?? "nothing"}\n\n${seedUsage}`);
      return number;
    };
    switch (flag) {
      case "--products":
        parsed.products = value();
        break;
      case "--images":
        parsed.images = value();
        break;
      case "--if-empty":
        parsed.ifEmpty = true;
        break;
      case "--help":
      case "-h":
        parsed.help = true;
        break;
      default:
        throw new Error(`Unknown option ${argument}\n\n${seedUsage}`);
    }
  }
  return parsed;
}
