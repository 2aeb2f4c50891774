import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The repository explains itself: every `docs/<page>.md` or `docs/<page>.md#<anchor>` that a source file, test,
 * README or doc cites must name a page of this repository and a heading on it, and nothing may cite documents
 * that live outside it. Pure file reads, so it runs with the unit tier.
 */

const ROOT = resolve(__dirname, '..', '..', '..');
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', '.switchboard', 'coverage', '.handoff']);
const SCANNED = /\.(ts|mts|cts|js|mjs|cjs|json|sql|ya?ml|md)$/;
const UNSCANNED_FILES = new Set(['package-lock.json']);

/** A docs page reference, optionally with `#anchor`, not preceded by another path segment. */
const DOC_REFERENCE = /(?<![\w./-])docs\/([\w.-]+\.md)(?:#([\w-]+))?/g;
/** Markdown link targets inside a .md file: `[text](page.md#anchor)`, `[text](#anchor)`. */
const MARKDOWN_LINK = /\]\(([^)\s]*)\)/g;
/** Citations of documents kept outside the repository. */
const OUTSIDE = [
  { pattern: /contract\s*\u00a7/, what: 'cites the external contract; cite a docs/ page instead' },
  { pattern: /\.\.\/shared\//, what: 'points at a folder outside the repository' },
];

function sourceFiles(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      const path = join(dir, entry.name);
      if (!SKIPPED_DIRS.has(entry.name) && relative(ROOT, path) !== join('bench', 'results')) sourceFiles(path, found);
    } else if (entry.isFile() && SCANNED.test(entry.name) && !UNSCANNED_FILES.has(entry.name)) {
      found.push(join(dir, entry.name));
    }
  }
  return found;
}

/** GitHub's heading anchor: lowercase, punctuation and symbols dropped, each space a hyphen. */
function headingSlug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a markdown page, outside fenced code blocks; repeated headings get `-1`, `-2`, … as on GitHub. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      continue;
    }
    if (fence !== null) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = headingSlug(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

const pages = new Map<string, Set<string> | null>();
function anchorsOfPage(path: string): Set<string> | null {
  if (!pages.has(path)) {
    let text: string | null = null;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      text = null;
    }
    pages.set(path, text === null ? null : anchorsOf(text));
  }
  return pages.get(path) ?? null;
}

function checkTarget(page: string, anchor: string | undefined): string | null {
  const anchors = anchorsOfPage(page);
  if (anchors === null) return `${relative(ROOT, page)} does not exist`;
  if (anchor !== undefined && !anchors.has(anchor)) return `${relative(ROOT, page)} has no heading #${anchor}`;
  return null;
}

function problemsIn(file: string): string[] {
  const problems: string[] = [];
  const lines = readFileSync(file, 'utf8').split('\n');
  const where = (i: number) => `${relative(ROOT, file)}:${i + 1}`;
  lines.forEach((line, i) => {
    for (const { pattern, what } of OUTSIDE) if (pattern.test(line)) problems.push(`${where(i)}: ${what}`);
    for (const match of line.matchAll(DOC_REFERENCE)) {
      const problem = checkTarget(join(ROOT, 'docs', match[1]), match[2]);
      if (problem) problems.push(`${where(i)}: ${match[0]}: ${problem}`);
    }
    if (!file.endsWith('.md')) return;
    for (const match of line.matchAll(MARKDOWN_LINK)) {
      const target = match[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) continue;
      const [path, anchor] = target.split('#', 2);
      if (path !== '' && !path.endsWith('.md')) continue;
      const problem = checkTarget(path === '' ? file : resolve(dirname(file), path), anchor);
      if (problem) problems.push(`${where(i)}: (${target}): ${problem}`);
    }
  });
  return problems;
}

describe('documentation references', () => {
  it('slugs headings as GitHub does', () => {
    expect(headingSlug('POST /v1/messages — send a message')).toBe('post-v1messages--send-a-message');
    expect(headingSlug('Target guard (SSRF)')).toBe('target-guard-ssrf');
    expect(headingSlug('The 24-hour customer service window')).toBe('the-24-hour-customer-service-window');
    expect(headingSlug('`auto` fallback')).toBe('auto-fallback');
    expect(headingSlug('Delivery, retries and dead letters')).toBe('delivery-retries-and-dead-letters');
    expect([...anchorsOf('# A\n```sh\n# not a heading\n```\n## A\n### b_c')]).toEqual(['a', 'a-1', 'b_c']);
  });

  it('finds a missing page, a missing anchor and an outside citation', () => {
    const page = join(ROOT, 'docs', 'api.md');
    expect(checkTarget(join(ROOT, 'docs', 'no-such-page.md'), undefined)).toMatch(/no-such-page\.md does not exist$/);
    expect(checkTarget(page, 'no-such-heading')).toBe('docs/api.md has no heading #no-such-heading');
    expect(checkTarget(page, 'idempotency-key')).toBeNull();
    expect(OUTSIDE[0].pattern.test(`see contract ${'\u00a7'}3`)).toBe(true);
  });

  it('every docs/ reference in the repository resolves, and nothing cites documents outside it', () => {
    const files = sourceFiles(ROOT);
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap(problemsIn)).toEqual([]);
  });
});
