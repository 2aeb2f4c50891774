import { parseArgs as parseNodeArgs } from 'node:util';

/**
 * The CLI's command line, parsed by `node:util` `parseArgs` with `strict: true`: an unknown flag (a typo such as
 * `--tset`) or a flag without its value is refused with exit 2 before anything is touched (docs/authentication.md#the-cli).
 */
export class UsageError extends Error {
  constructor(
    message: string,
    /** Stable, like the API's error codes: `unknown_flag`, `missing_value`, `missing_flag`, `missing_argument`, `unknown_command`, `invalid_value`, …. */
    readonly code: string,
  ) {
    super(message);
  }
}

export interface FlagSpec {
  name: string;
  /** A string flag takes a value (`--account acme`); a boolean flag takes none. */
  value?: string;
  required?: boolean;
  help: string;
}

export interface CommandSpec {
  group: string;
  action: string;
  /** Positional arguments after the command, e.g. `<key_id>`. */
  positionals: string[];
  flags: FlagSpec[];
  summary: string;
}

const HELP: FlagSpec = { name: 'help', help: 'print this help and exit' };

export const COMMANDS: readonly CommandSpec[] = [
  {
    group: 'keys',
    action: 'create',
    positionals: [],
    summary: 'create an API key (and its account when new); prints the key once',
    flags: [
      { name: 'account', value: '<name>', required: true, help: 'the account that owns the key' },
      { name: 'scopes', value: '<a,b>', help: 'comma-separated scopes (default: every scope, *)' },
      { name: 'test', help: 'a test key: every upstream is the carrier simulator' },
      { name: 'live', help: 'a live key: real upstreams (the default when neither --test nor --live is given)' },
      { name: 'rate-limit', value: '<rps>', help: 'requests per second for this key' },
    ],
  },
  { group: 'keys', action: 'revoke', positionals: ['<key_id>'], summary: 'revoke a key', flags: [] },
  {
    group: 'numbers',
    action: 'add',
    positionals: ['<E.164>'],
    summary: 'give a number to an account (one owner per number: docs/numbers.md)',
    flags: [
      { name: 'account', value: '<name>', required: true, help: 'the account that owns the number' },
      { name: 'channels', value: '<a,b>', help: 'chat, sms, rcs, voice (default: all four)' },
    ],
  },
  {
    group: 'users',
    action: 'create',
    positionals: [],
    summary: 'create a console user and print a one-time sign-in link (docs/console.md)',
    flags: [
      { name: 'account', value: '<name>', required: true, help: 'the account the user belongs to' },
      { name: 'email', value: '<address>', required: true, help: "the user's email address" },
      { name: 'role', value: '<owner|developer|viewer>', required: true, help: "the user's role" },
      { name: 'base-url', value: '<url>', help: 'the gateway URL for the link (default: the running local stack)' },
    ],
  },
  { group: 'secrets', action: 'reencrypt', positionals: [], summary: 'seal every stored secret under the active key (docs/webhooks.md)', flags: [] },
];

export type ParsedCommandLine =
  { kind: 'help'; text: string } | { kind: 'run'; command: CommandSpec; positionals: string[]; options: Record<string, string | boolean | undefined> };

function usageLine(command: CommandSpec): string {
  const flags = command.flags.map((f) => {
    const flag = `--${f.name}${f.value ? ` ${f.value}` : ''}`;
    return f.required ? flag : `[${flag}]`;
  });
  return ['switchboard', command.group, command.action, ...command.positionals, ...flags].join(' ');
}

/** Every flag of `command`, `--help` included, one a line; or every command when none is given. */
export function helpText(command?: CommandSpec): string {
  if (!command) {
    return [
      'usage: switchboard <command> [flags]   (JSON on stdout; refusals exit 2 with {"error","code"} on stderr)',
      '',
      ...COMMANDS.map((c) => `  ${usageLine(c)}\n      ${c.summary}`),
      '',
      'switchboard <command> --help lists the flags of one command.',
      '',
    ].join('\n');
  }
  const width = Math.max(...[...command.flags, HELP].map((f) => `--${f.name}${f.value ? ` ${f.value}` : ''}`.length));
  return [
    `usage: ${usageLine(command)}`,
    `  ${command.summary}`,
    '',
    ...[...command.flags, HELP].map((f) => `  ${`--${f.name}${f.value ? ` ${f.value}` : ''}`.padEnd(width)}  ${f.required ? '(required) ' : ''}${f.help}`),
    '',
  ].join('\n');
}

/** node:util's parse errors, as the CLI's `{error, code}` refusals. */
function usageErrorFrom(error: unknown, command: CommandSpec): UsageError {
  const { code, message } = error as { code?: string; message: string };
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
    return new UsageError(`${message}; switchboard ${command.group} ${command.action} --help lists every flag`, 'unknown_flag');
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return new UsageError(message, 'missing_value');
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return new UsageError(message, 'unexpected_argument');
  return new UsageError(message, 'invalid_arguments');
}

/** Throws a UsageError for anything but a known command with known flags, each given its value. */
export function parseCommandLine(argv: string[]): ParsedCommandLine {
  const [group, action, ...rest] = argv;
  if (group === undefined || group === '--help' || group === '-h') return { kind: 'help', text: helpText() };
  const command = COMMANDS.find((c) => c.group === group && c.action === action);
  if (!command)
    throw new UsageError(`unknown command "${[group, action].filter(Boolean).join(' ')}"; switchboard --help lists every command`, 'unknown_command');
  const options = Object.fromEntries([...command.flags, HELP].map((f) => [f.name, { type: f.value ? ('string' as const) : ('boolean' as const) }]));
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseNodeArgs({ args: rest, options, strict: true, allowPositionals: command.positionals.length > 0 });
  } catch (error) {
    throw usageErrorFrom(error, command);
  }
  if (parsed.values.help) return { kind: 'help', text: helpText(command) };
  if (parsed.positionals.length < command.positionals.length) {
    throw new UsageError(`${command.positionals[parsed.positionals.length]} is required; usage: ${usageLine(command)}`, 'missing_argument');
  }
  if (parsed.positionals.length > command.positionals.length) {
    throw new UsageError(`unexpected argument "${parsed.positionals[command.positionals.length]}"; usage: ${usageLine(command)}`, 'unexpected_argument');
  }
  for (const flag of command.flags) {
    if (flag.required && (parsed.values[flag.name] === undefined || parsed.values[flag.name] === '')) {
      throw new UsageError(`--${flag.name} ${flag.value} is required; usage: ${usageLine(command)}`, 'missing_flag');
    }
  }
  return { kind: 'run', command, positionals: parsed.positionals, options: parsed.values };
}
