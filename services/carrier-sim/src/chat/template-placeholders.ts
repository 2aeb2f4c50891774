/** Counts the distinct `{{n}}` placeholders of a template body: `{{1}}` used twice is one parameter. */
export function countPlaceholders(bodyText: string): number {
  const numbers = new Set<string>();
  for (const match of bodyText.matchAll(/\{\{\s*(\d+)\s*\}\}/g)) numbers.add(match[1]);
  return numbers.size;
}

/** Fills `{{n}}` with the n-th parameter, leaving placeholders without a value as they are. */
export function renderTemplateBody(bodyText: string, parameters: readonly string[]): string {
  return bodyText.replace(/\{\{\s*(\d+)\s*\}\}/g, (whole, n: string) => parameters[Number(n) - 1] ?? whole);
}

/** The BODY component's text from a template definition (`components: [{ type: "BODY", text }]`). */
export function templateBodyText(components: readonly unknown[]): string {
  for (const component of components) {
    if (!component || typeof component !== 'object') continue;
    const { type, text } = component as { type?: unknown; text?: unknown };
    if (typeof type === 'string' && type.toUpperCase() === 'BODY' && typeof text === 'string') return text;
  }
  return '';
}
