/** `{{…}}` in template text; only `{{n}}` with a positive number is a placeholder the API can fill. */
const ANY_PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
const NUMBERED = /^\s*([1-9]\d{0,2})\s*$/;

export interface PlaceholderScan {
  /** Distinct numbers used, ascending: `{{1}}` twice is one parameter. */
  numbers: number[];
  /** Placeholders that are not `{{n}}` (named, empty, zero). */
  invalid: string[];
}

export function scanPlaceholders(text: string): PlaceholderScan {
  const numbers = new Set<number>();
  const invalid: string[] = [];
  for (const match of text.matchAll(ANY_PLACEHOLDER)) {
    const numbered = NUMBERED.exec(match[1]);
    if (numbered) numbers.add(Number(numbered[1]));
    else invalid.push(match[0]);
  }
  return { numbers: [...numbers].sort((a, b) => a - b), invalid };
}

/** How many parameters a send must give: the number of distinct `{{n}}` in the body. */
export function countPlaceholders(text: string): number {
  return scanPlaceholders(text).numbers.length;
}

/** True when the placeholders are exactly `{{1}}…{{n}}`, as the upstream requires (docs/chat.md#templates). */
export function placeholdersAreContiguous(numbers: readonly number[]): boolean {
  return numbers.every((n, i) => n === i + 1);
}
