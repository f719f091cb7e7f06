/** The options of `npm run db:seed`. */
export type SeedArguments = { products?: number; images?: number; orders?: number; ifEmpty: boolean; forceProduction: boolean; help: boolean };

export const seedUsage = `Usage: npm run db:seed -- [--if-empty] [--products N] [--images N] [--orders N] [--force-production]

  (default)            replace the catalogue and demo data with a fresh demo shop, six months of orders included
  --if-empty           seed only when the database has no products yet
  --products N         how many products (300 by default; 100000 for the benchmark)
  --images N           draw pictures for the first N products (300 by default)
  --orders N           add a history of N orders over three years, written in bulk (1000000 for the benchmark)
  --force-production   seed although ENVIRONMENT=production (refused otherwise)`;

/**
 * Why the seed must not run, or null when it may. Production is refused whatever else is asked: even --if-empty
 * would give a new live shop the demo's ADMIN account and public coupon codes, and a reseed empties its orders.
 */
export function seedRefusal(args: SeedArguments, environment: string | undefined): string | null {
  if (environment !== "production" || args.forceProduction) return null;
  return [
    "Refusing to seed: ENVIRONMENT=production.",
    "The demo seed creates the ADMIN account admin@example.com, public coupon codes and made-up products, and without",
    "--if-empty it empties the orders, payments, stock ledger and logbook.",
    "If this really is the database to fill with the demo shop, run again with --force-production.",
  ].join("\n");
}

export function parseSeedArguments(argv: readonly string[]): SeedArguments {
  const parsed: SeedArguments = { ifEmpty: false, forceProduction: false, help: false };
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
      case "--orders":
        parsed.orders = value();
        break;
      case "--if-empty":
        parsed.ifEmpty = true;
        break;
      case "--force-production":
        parsed.forceProduction = true;
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
