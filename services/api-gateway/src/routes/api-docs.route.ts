import { Router, type Request } from 'express';
import { buildOpenApiDocument } from '@switchboard/schemas';
import { DOCS_SCRIPT_PATH, renderDocsPage, type DocsPage } from '../docs/docs-page';

export interface ApiDocsOptions {
  /** PUBLIC_BASE_URL; unset, `servers` names the scheme and host each request was sent to. */
  publicBaseUrl?: string;
}

/**
 * `GET /v1/openapi.json` and the reference at `GET /docs` (docs/api.md#reference-docs), both built once, on
 * their first request (the renderer bundle alone is 3.5 MB, docs/performance/batch.md#gateway-memory); only the
 * document's absolute `servers` URL may differ per request.
 */
export function apiDocsRouter({ publicBaseUrl }: ApiDocsOptions = {}): Router {
  let built: { document: ReturnType<typeof buildOpenApiDocument>; fixed: string | undefined } | undefined;
  const openApi = () => {
    if (built) return built;
    const document = buildOpenApiDocument();
    const fixed = publicBaseUrl === undefined ? undefined : JSON.stringify({ ...document, servers: [{ url: publicBaseUrl, description: 'This gateway' }] });
    return (built = { document, fixed });
  };
  let rendered: DocsPage | undefined;
  const page = () => (rendered ??= renderDocsPage());
  // The host header is the client's to choose: it only changes what this one answer says about itself.
  const serverOf = (req: Request): string => `${req.protocol}://${req.get('host') ?? 'localhost'}`;
  const router = Router();
  router.get('/v1/openapi.json', (req, res) => {
    const { document, fixed } = openApi();
    res.type('application/json').send(fixed ?? JSON.stringify({ ...document, servers: [{ url: serverOf(req), description: 'This gateway' }] }));
  });
  router.get('/docs', (_req, res) => {
    const { contentSecurityPolicy, html } = page();
    res.setHeader('Content-Security-Policy', contentSecurityPolicy);
    res.type('text/html').send(html);
  });
  router.get(DOCS_SCRIPT_PATH, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('text/javascript').send(page().script);
  });
  return router;
}
