/**
 * Runs one of the database commands: `--help` prints its usage, an argument it cannot read is reported with the usage
 * below it, and any failure prints its message alone and sets exit code 1 (no stack trace for the person at the shell).
 */
export function runCli<Args extends { help: boolean }>(usage: string, parse: (argv: string[]) => Args, main: (args: Args) => Promise<void>): void {
  async function run(): Promise<void> {
    let args: Args;
    try {
      args = parse(process.argv.slice(2));
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
    }
    if (args.help) {
      console.log(usage);
      return;
    }
    await main(args);
  }
  run().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
