import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The generator is a CommonJS script beside the package (scripts/), run by `npm run generate -w @switchboard/sdk`.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS script of the package, outside its TypeScript sources
const generator = require(join(__dirname, '..', '..', 'scripts', 'generate-types.cjs')) as {
  renderTypes(document: unknown): Promise<string>;
  currentDocument(): unknown;
  target: string;
};

test('src/generated/openapi.ts is what the current OpenAPI document generates (else: npm run generate -w @switchboard/sdk)', async () => {
  const expected = await generator.renderTypes(generator.currentDocument());
  const committed = readFileSync(generator.target, 'utf8');
  assert.ok(committed === expected, 'src/generated/openapi.ts is out of date: run npm run generate -w @switchboard/sdk and commit it');
});
