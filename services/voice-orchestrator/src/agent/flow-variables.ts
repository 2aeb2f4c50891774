/** `{{name}}` and `{{name.path}}` from the call's variables; an unknown name renders as an empty string. */
export function renderTemplate(text: string, variables: Record<string, unknown>): string {
  return text.replace(/\{\{\s*([A-Za-z_][\w.]*)\s*\}\}/g, (_, path: string) => {
    let value: unknown = variables;
    for (const part of path.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- objects were turned into JSON just before; what is left is a primitive
    return value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  });
}

const unquote = (s: string) => s.trim().replace(/^(["'])(.*)\1$/, '$2');

/**
 * A branch condition (docs/voice-agents.md#branch): `<a> == <b>`, `<a> != <b>` or `<a> contains <b>`, where each side may
 * use `{{variables}}` and quotes; a bare value is true unless it renders empty, `0` or `false`.
 */
export function conditionHolds(condition: string, variables: Record<string, unknown>): boolean {
  const rendered = renderTemplate(condition, variables);
  const match = /^(.*?)\s*(==|!=|\bcontains\b)\s*(.*)$/.exec(rendered);
  if (!match) {
    const value = unquote(rendered).toLowerCase();
    return value !== '' && value !== '0' && value !== 'false';
  }
  const [left, operator, right] = [unquote(match[1]), match[2], unquote(match[3])];
  if (operator === '==') return left === right;
  if (operator === '!=') return left !== right;
  return left.toLowerCase().includes(right.toLowerCase());
}
