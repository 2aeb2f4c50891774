/** Minimal argv parsing: positionals plus `--name value` and boolean `--flag`. */
export interface ParsedArgs {
  positionals: string[];
  options: Record<string, string | true>;
}

const BOOLEAN_FLAGS = new Set(['test', 'help']);

export function parseArgs(argv: string[]): ParsedArgs {
  const positionals: string[] = [];
  const options: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split('=', 2);
    if (inline !== undefined) options[name] = inline;
    else if (BOOLEAN_FLAGS.has(name) || i + 1 >= argv.length || argv[i + 1].startsWith('--')) options[name] = true;
    else options[name] = argv[++i];
  }
  return { positionals, options };
}
