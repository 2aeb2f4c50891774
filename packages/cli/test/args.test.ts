import { COMMANDS, helpText, parseCommandLine, UsageError } from '../src/args';

// The CLI's command line (docs/authentication.md#the-cli): strict, so a typo never becomes a live key.
function refusal(argv: string[]): { code: string; message: string } {
  try {
    parseCommandLine(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return { code: (error as UsageError).code, message: (error as UsageError).message };
  }
  throw new Error(`${argv.join(' ')} was accepted`);
}

describe('parseCommandLine', () => {
  it('refuses an unknown flag, a typo of --test included, instead of ignoring it', () => {
    expect(refusal(['keys', 'create', '--account', 'x', '--bogus-flag'])).toMatchObject({
      code: 'unknown_flag',
      message: expect.stringContaining('--bogus-flag'),
    });
    expect(refusal(['keys', 'create', '--account', 'x', '--tset'])).toMatchObject({ code: 'unknown_flag', message: expect.stringContaining('--tset') });
    expect(refusal(['numbers', 'add', '+14155550100', '--account', 'x', '--test']).code).toBe('unknown_flag');
  });

  it('refuses a flag without its value, at the end or followed by another flag', () => {
    expect(refusal(['keys', 'create', '--account']).code).toBe('missing_value');
    expect(refusal(['keys', 'create', '--account', '--test']).code).toBe('missing_value');
    expect(refusal(['users', 'create', '--account', 'a', '--email', 'b@example.com', '--role']).code).toBe('missing_value');
  });

  it('refuses a missing required flag or argument, an extra argument and an unknown command', () => {
    expect(refusal(['keys', 'create', '--test'])).toMatchObject({ code: 'missing_flag', message: expect.stringContaining('--account') });
    expect(refusal(['keys', 'revoke']).code).toBe('missing_argument');
    expect(refusal(['keys', 'revoke', 'key_a', 'key_b']).code).toBe('unexpected_argument');
    expect(refusal(['keys', 'create', 'acme', '--account', 'x']).code).toBe('unexpected_argument');
    expect(refusal(['keys', 'list']).code).toBe('unknown_command');
  });

  it('accepts every documented form', () => {
    expect(parseCommandLine(['keys', 'create', '--account', 'acme', '--scopes', 'messages:write', '--test', '--rate-limit', '5'])).toMatchObject({
      kind: 'run',
      options: { account: 'acme', scopes: 'messages:write', test: true, 'rate-limit': '5' },
    });
    expect(parseCommandLine(['keys', 'create', '--account=acme', '--live'])).toMatchObject({ kind: 'run', options: { account: 'acme', live: true } });
    expect(parseCommandLine(['numbers', 'add', '--account', 'acme', '+14155550100', '--channels', 'sms'])).toMatchObject({
      kind: 'run',
      positionals: ['+14155550100'],
    });
  });

  it('--help lists every flag of every command, --live and --test included', () => {
    expect(parseCommandLine(['--help'])).toEqual({ kind: 'help', text: helpText() });
    expect(parseCommandLine([])).toMatchObject({ kind: 'help' });
    for (const command of COMMANDS) {
      const help = parseCommandLine([command.group, command.action, '--help']);
      expect(help.kind).toBe('help');
      const text = help.kind === 'help' ? help.text : '';
      for (const flag of [...command.flags.map((f) => f.name), 'help']) expect(text).toContain(`--${flag}`);
      for (const flag of command.flags) expect(helpText()).toContain(`--${flag.name}`);
    }
    const keysCreate = parseCommandLine(['keys', 'create', '--help']);
    expect(keysCreate.kind === 'help' && keysCreate.text).toMatch(/--live[\s\S]*--test|--test[\s\S]*--live/);
  });
});
