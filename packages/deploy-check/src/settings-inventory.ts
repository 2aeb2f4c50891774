import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_DIR } from './render-chart';

/**
 * The environment names the code reads and the ones docs/configuration.md lists, found in the source text, so
 * that a setting can neither be read undocumented nor documented unread (docs/configuration.md, "What is a setting").
 */

/** Where settings are read: the services, the packages (devstack, the CLI, the store's migration included) and scripts/. */
const SOURCE_ROOTS = ['services', 'packages', 'scripts'];

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist' || entry === 'test') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (/\.(ts|mjs|js)$/.test(entry) && !/\.test\.ts$/.test(entry)) files.push(path);
  }
  return files;
}

function filesReadingTheEnvironment(): string[] {
  const files: string[] = [];
  for (const root of SOURCE_ROOTS) {
    const top = join(REPO_DIR, root);
    // services/<name>/src and packages/<name>/src; scripts/ is read whole.
    const dirs = root === 'scripts' ? [top] : readdirSync(top).map((name) => join(top, name, 'src'));
    for (const dir of dirs) {
      if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) continue;
      for (const file of sourceFiles(dir)) {
        // This file names the patterns, not settings.
        if (file === __filename) continue;
        if (/EnvReader|process\.env|\benv\.[A-Z]|\benv\[/.test(readFileSync(file, 'utf8'))) files.push(file);
      }
    }
  }
  return files;
}

const NAME = '[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*';
const READS = [
  // EnvReader's readers, on whatever the reader is called.
  new RegExp(`\\.(?:string|optionalString|int|bool|list|parsed)\\(\\s*'(${NAME})'`, 'g'),
  // env.NAME, process.env.NAME, env['NAME']
  new RegExp(`\\benv\\.(${NAME})\\b`, 'g'),
  new RegExp(`\\benv\\[\\s*'(${NAME})'\\s*\\]`, 'g'),
  // A name handed to a helper that reads it: any whole string literal shaped like a variable with an underscore.
  /'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'/g,
];

/** A name put together at run time cannot be checked against the docs, so it is reported instead of read. */
const BUILT_NAME = /\.(?:string|optionalString|int|bool|list|parsed)\(\s*`|\benv\[\s*`/;

export interface SettingsInventory {
  /** Every name read, with the files reading it (repository-relative). */
  read: Map<string, string[]>;
  /** Files that build a name from a template string. */
  builtNames: string[];
}

export function readSettings(): SettingsInventory {
  const read = new Map<string, string[]>();
  const builtNames: string[] = [];
  for (const file of filesReadingTheEnvironment()) {
    const text = readFileSync(file, 'utf8');
    const where = relative(REPO_DIR, file);
    if (BUILT_NAME.test(text)) builtNames.push(where);
    for (const pattern of READS) {
      for (const match of text.matchAll(pattern)) {
        const files = read.get(match[1]) ?? [];
        if (!files.includes(where)) files.push(where);
        read.set(match[1], files);
      }
    }
  }
  return { read, builtNames };
}

/** The names in the first column of docs/configuration.md's tables: what the page documents as settings. */
export function documentedSettings(): Set<string> {
  const names = new Set<string>();
  for (const line of readFileSync(join(REPO_DIR, 'docs', 'configuration.md'), 'utf8').split('\n')) {
    const first = /^\|([^|]+)\|/.exec(line)?.[1];
    if (!first) continue;
    for (const match of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(match[1]);
  }
  return names;
}

/** The count docs/configuration.md states in its introduction ("… N names in all"). */
export function statedSettingsCount(): number | undefined {
  const match = /(\d+) names in all/.exec(readFileSync(join(REPO_DIR, 'docs', 'configuration.md'), 'utf8'));
  return match ? Number(match[1]) : undefined;
}
