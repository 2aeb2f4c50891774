import { chooseLogFormat, prettyLine } from '../src';

describe('chooseLogFormat', () => {
  test('unset: pretty at a terminal, JSON when piped', () => {
    expect(chooseLogFormat(undefined, true)).toBe('pretty');
    expect(chooseLogFormat(undefined, false)).toBe('json');
    expect(chooseLogFormat('', false)).toBe('json');
  });

  test('LOG_FORMAT wins over the terminal check', () => {
    expect(chooseLogFormat('json', true)).toBe('json');
    expect(chooseLogFormat('pretty', false)).toBe('pretty');
  });

  test('anything else is refused with the allowed values', () => {
    expect(() => chooseLogFormat('yaml', true)).toThrow('LOG_FORMAT must be one of json, pretty, got "yaml"');
  });
});

describe('prettyLine', () => {
  test('one line: time, level, service, message, then the fields as key=value', () => {
    const line = prettyLine(
      { level: 'info', message: 'ready', service: 'api-gateway', timestamp: '2026-11-23T10:41:02.123Z', url: 'http://127.0.0.1:8080', config: { port: 8080 } },
      (_level, text) => `<${text}>`,
    );
    expect(line).toBe('10:41:02.123 <info > \x1b[2mapi-gateway\x1b[0m ready url=http://127.0.0.1:8080 config={ port: 8080 }');
    expect(line).not.toContain('\n');
  });
});
