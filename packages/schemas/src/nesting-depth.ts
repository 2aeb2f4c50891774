import { childPointer } from './field-errors';

/** @defaultValue Deeper JSON is refused before any code walks it recursively. */
export const MAX_JSON_DEPTH = 32;

/**
 * The JSON Pointer of the first value nested deeper than `maxDepth`, or null. Iterative on purpose:
 * the point is to protect recursive code (canonical JSON, `JSON.stringify`) from a 256 KiB `[[[[…`.
 */
export function tooDeepAt(value: unknown, maxDepth = MAX_JSON_DEPTH): string | null {
  const stack: Array<{ value: unknown; depth: number; pointer: string }> = [{ value, depth: 0, pointer: '' }];
  while (stack.length > 0) {
    const node = stack.pop() as { value: unknown; depth: number; pointer: string };
    if (node.value === null || typeof node.value !== 'object') continue;
    if (node.depth >= maxDepth) return node.pointer;
    const entries: Array<[string | number, unknown]> = Array.isArray(node.value)
      ? node.value.map((v, i) => [i, v])
      : Object.entries(node.value as Record<string, unknown>);
    for (const [key, child] of entries) stack.push({ value: child, depth: node.depth + 1, pointer: childPointer(node.pointer, key) });
  }
  return null;
}
