/** A path with each id escaped, so an id can never change the route it is sent to. */
export function route(strings: TemplateStringsArray, ...ids: string[]): string {
  return strings.reduce((path, part, i) => path + part + (i < ids.length ? encodeURIComponent(ids[i]) : ''), '');
}
