/**
 * An OpenAI-compatible server as one URI, its credential included as in DATABASE_URL (docs/configuration.md#voice):
 * `https://:sk-abc@api.openai.com?model=tts-1&voice=alloy`. The API key is the URL's password (percent-encoded), the
 * base URL is what remains without `/v1`, and the query holds the few choices that go with that server.
 */
export interface OpenAiServerUrl {
  /** Scheme, host, port and path, without credentials, query or a trailing slash. */
  baseUrl: string;
  apiKey?: string;
  /** The query parameters given, each one of the names the caller allows. */
  params: Record<string, string>;
}

/** The form of the value, for the messages of a bad one. */
export const openAiServerUrlFormat = (params: Record<string, string>) =>
  `http(s)://:KEY@host[/path]?${Object.entries(params)
    .map(([name, example]) => `${name}=${example}`)
    .join('&')} with the key percent-encoded`;

/** The value as it may be printed: a password in it is masked. */
export const withoutPassword = (text: string) => text.replace(/\/\/([^/@]*):[^/@]*@/, '//$1:***@');

/**
 * Parses `text`; throws an Error saying what is wrong, never quoting the key. A query parameter outside `allowed` is
 * refused rather than ignored, since a misspelt `modle=` would otherwise leave the default model in place silently.
 */
export function parseOpenAiServerUrl(text: string, allowed: readonly string[]): OpenAiServerUrl {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new Error(`"${withoutPassword(text)}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`the scheme must be http or https, not ${url.protocol.slice(0, -1)}`);
  if (url.username !== '') throw new Error('the API key goes in the password, after a colon: https://:KEY@host');
  if (url.hash !== '') throw new Error('a URL fragment (#…) means nothing here');
  const params: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    if (!allowed.includes(name)) throw new Error(`unknown query parameter "${name}" (known: ${allowed.join(', ')})`);
    if (name in params) throw new Error(`query parameter "${name}" is given twice`);
    if (value === '') throw new Error(`query parameter "${name}" is empty`);
    params[name] = value;
  }
  let apiKey: string | undefined;
  try {
    apiKey = url.password === '' ? undefined : decodeURIComponent(url.password);
  } catch {
    throw new Error('the API key is not percent-encoded correctly');
  }
  return { baseUrl: `${url.origin}${url.pathname}`.replace(/\/+$/, ''), apiKey, params };
}
