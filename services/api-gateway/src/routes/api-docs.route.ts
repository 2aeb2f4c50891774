import { Router } from 'express';
import { buildOpenApiDocument } from '@switchboard/schemas';
import { renderDocsPage } from '../docs/docs-page';

/** `GET /v1/openapi.json` and `GET /docs`, both rendered once at start-up. */
export function apiDocsRouter(): Router {
  const document = buildOpenApiDocument();
  const json = JSON.stringify(document);
  const page = renderDocsPage(document);
  const router = Router();
  router.get('/v1/openapi.json', (_req, res) => {
    res.type('application/json').send(json);
  });
  router.get('/docs', (_req, res) => {
    res.setHeader('Content-Security-Policy', page.contentSecurityPolicy);
    res.type('text/html').send(page.html);
  });
  return router;
}
