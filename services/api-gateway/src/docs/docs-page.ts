import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/*
 * `/docs`: the API reference rendered by Scalar (npm `@scalar/api-reference`), served from this
 * gateway with no request to any other host (docs/api.md#reference-docs). The bundle is read from
 * node_modules once at start-up; the page loads it and the document from the gateway itself.
 */

/** Where the page loads the renderer from; under `/docs` so it stays outside the API document. */
export const DOCS_SCRIPT_PATH = '/docs/scalar-api-reference.js';

/**
 * Scalar's options: no web fonts from its CDN, no proxy for "try it" calls (they go straight to this
 * gateway), and the document from this gateway.
 */
const CONFIGURATION = {
  url: '/v1/openapi.json',
  withDefaultFonts: false,
  proxyUrl: '',
  hideDownloadButton: false,
  defaultOpenAllTags: false,
  // Scalar's hosted extras (its AI agent, the developer toolbar) would call Scalar's servers.
  agent: { disabled: true },
  showDeveloperTools: 'never',
  metaData: { title: 'Switchboard API reference' },
  // "Try it" then asks for the API key the document's bearer scheme describes.
  authentication: { preferredSecurityScheme: 'bearerAuth' },
};

const INIT = `Scalar.createApiReference('#reference', ${JSON.stringify(CONFIGURATION)});`;
const STYLE = 'body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}';

const cspHash = (source: string): string => `'sha256-${createHash('sha256').update(source).digest('base64')}'`;

export interface DocsPage {
  html: string;
  script: Buffer;
  contentSecurityPolicy: string;
}

export function renderDocsPage(): DocsPage {
  const script = readFileSync(require.resolve('@scalar/api-reference/browser/standalone.js'));
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Switchboard API reference</title>
<style>${STYLE}</style>
</head>
<body>
<div id="reference"></div>
<script src="${DOCS_SCRIPT_PATH}"></script>
<script>${INIT}</script>
</body>
</html>
`;
  return {
    html,
    script,
    // Only this gateway: the bundle, the document, and "try it" calls. Scalar injects its own styles and
    // inlines its icons, hence 'unsafe-inline' styles and data: images and fonts.
    contentSecurityPolicy: [
      "default-src 'none'",
      `script-src 'self' ${cspHash(INIT)}`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      "connect-src 'self'",
      "worker-src 'self' blob:",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
  };
}
