import { Router, type RequestHandler } from 'express';
import { isId, NotFoundError } from '@switchboard/domain';
import { toInboundResource, type InboundMessagesRepository } from '@switchboard/store';
import type { DependencyGuard } from '../http/dependency-guard';
import { callerOf } from '../http/request-context';
import { pageOf, parsePageQuery } from '../pagination/page-query';

export interface InboundReadDeps {
  inbound: Pick<InboundMessagesRepository, 'findForAccount' | 'list'>;
  guard: DependencyGuard;
}

/** Customer replies for clients that do not take webhooks (issue 3); the same shape as `message.inbound` data. */
export function createInboundReadHandlers({ inbound, guard }: InboundReadDeps) {
  const listInbound: RequestHandler = async (req, res) => {
    const { accountId } = callerOf(res);
    const page = parsePageQuery(req.query as Record<string, unknown>, 'inb');
    // One extra row tells whether another page exists without a count query.
    const rows = await guard('store', () => inbound.list(accountId, { ...page, limit: page.limit + 1 }));
    res.json(pageOf(rows.map(toInboundResource), page.limit));
  };

  const getInbound: RequestHandler = async (req, res) => {
    const { accountId } = callerOf(res);
    const id = req.params.id;
    // Malformed ids are answered like unknown ones (docs/conventions.md#identifiers).
    if (!isId('inb', id)) throw new NotFoundError();
    const row = await guard('store', () => inbound.findForAccount(accountId, id));
    if (!row) throw new NotFoundError();
    res.json(toInboundResource(row));
  };

  return { listInbound, getInbound };
}

export interface InboundRouterDeps {
  authenticateRead: RequestHandler[];
  handlers: ReturnType<typeof createInboundReadHandlers>;
}

export function inboundRouter({ authenticateRead, handlers }: InboundRouterDeps): Router {
  const router = Router();
  router.get('/v1/inbound', ...authenticateRead, handlers.listInbound);
  router.get('/v1/inbound/:id', ...authenticateRead, handlers.getInbound);
  return router;
}
