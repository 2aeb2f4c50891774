import { Router, type RequestHandler } from 'express';
import { ConflictError, isId, NotFoundError } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';
import { enqueueTemplateSubmit, type JobAdder, type SubmitTemplateJob } from '@switchboard/queues';
import type { ValidTemplate } from '@switchboard/schemas';
import { toTemplateResource, type TemplatesRepository } from '@switchboard/store';
import type { DependencyGuard } from '../http/dependency-guard';
import { callerOf } from '../http/request-context';
import { pageOf, parsePageQuery } from '../pagination/page-query';

export interface TemplateHandlersDeps {
  templates: Pick<TemplatesRepository, 'create' | 'findForAccount' | 'list' | 'remove'>;
  /** The `template-submit` queue; the dispatcher submits to the upstream and records its id. */
  submitQueue: JobAdder<SubmitTemplateJob>;
  validate: (body: unknown) => ValidTemplate;
  guard: DependencyGuard;
  logger: Logger;
  clock?: () => number;
}

/** `POST/GET/DELETE /v1/templates` (docs/chat.md#templates). */
export function createTemplateHandlers({ templates, submitQueue, validate, guard, logger, clock = Date.now }: TemplateHandlersDeps) {
  const createTemplate: RequestHandler = async (req, res) => {
    const caller = callerOf(res);
    const t = validate(req.body);
    const row = await guard('store', () =>
      templates.create({
        accountId: caller.accountId,
        mode: caller.mode,
        name: t.name,
        language: t.language,
        category: t.category,
        components: t.components,
        bodyText: t.bodyText,
        placeholderCount: t.placeholderCount,
        at: new Date(clock()),
      }),
    );
    if (!row) throw new ConflictError('template_already_exists', `A template "${t.name}" in language "${t.language}" already exists; delete it first.`);
    const job: SubmitTemplateJob = { template_id: row.id, account_id: caller.accountId, mode: caller.mode };
    try {
      await guard('redis', () => enqueueTemplateSubmit(submitQueue, job));
    } catch (error) {
      // A template nobody will submit would stay pending forever; take it back so the client can retry.
      await templates
        .remove(caller.accountId, row.id)
        .catch((e: Error) => logger.warn('unsubmitted template left behind', { template_id: row.id, error: e.message }));
      throw error;
    }
    res.status(201).setHeader('Location', `/v1/templates/${row.id}`);
    res.json(toTemplateResource(row));
  };

  const listTemplates: RequestHandler = async (req, res) => {
    const { accountId } = callerOf(res);
    const page = parsePageQuery(req.query as Record<string, unknown>, 'tpl');
    const rows = await guard('store', () => templates.list(accountId, { ...page, limit: page.limit + 1 }));
    res.json(pageOf(rows.map(toTemplateResource), page.limit));
  };

  const getTemplate: RequestHandler = async (req, res) => {
    const { accountId } = callerOf(res);
    const id = req.params.id;
    if (!isId('tpl', id)) throw new NotFoundError();
    const row = await guard('store', () => templates.findForAccount(accountId, id));
    if (!row) throw new NotFoundError();
    res.json(toTemplateResource(row));
  };

  const deleteTemplate: RequestHandler = async (req, res) => {
    const { accountId } = callerOf(res);
    const id = req.params.id;
    if (!isId('tpl', id)) throw new NotFoundError();
    if (!(await guard('store', () => templates.remove(accountId, id)))) throw new NotFoundError();
    res.status(204).end();
  };

  return { createTemplate, listTemplates, getTemplate, deleteTemplate };
}

export interface TemplatesRouterDeps {
  /** Authentication, rate limit and `templates:write`: the scope docs/authentication.md#scopes names for templates. */
  authenticate: RequestHandler[];
  body: RequestHandler[];
  handlers: ReturnType<typeof createTemplateHandlers>;
}

export function templatesRouter({ authenticate, body, handlers }: TemplatesRouterDeps): Router {
  const router = Router();
  router.post('/v1/templates', ...authenticate, ...body, handlers.createTemplate);
  router.get('/v1/templates', ...authenticate, handlers.listTemplates);
  router.get('/v1/templates/:id', ...authenticate, handlers.getTemplate);
  router.delete('/v1/templates/:id', ...authenticate, handlers.deleteTemplate);
  return router;
}
