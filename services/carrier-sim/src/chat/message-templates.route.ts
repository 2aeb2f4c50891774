import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '../support/json-logger';
import type { Scheduler } from '../support/scheduler';
import { newGraphId } from '../support/upstream-ids';
import type { TemplateRecord, TemplateStore } from '../state/template.store';
import type { ChatWebhookSender } from '../webhooks/chat-webhook.sender';
import { graphErrorBody, sendGraphError } from './graph-errors';
import { countPlaceholders, templateBodyText } from './template-placeholders';

export interface MessageTemplatesDeps {
  templates: TemplateStore;
  webhooks: ChatWebhookSender;
  scheduler: Scheduler;
  logger: Logger;
  wabaId: string;
  templateReviewMs: number;
  now: () => number;
}

const CATEGORIES = ['AUTHENTICATION', 'MARKETING', 'UTILITY'];

/** The simulator's review policy: names starting with `reject_` are refused, everything else passes. */
function reviewTemplate(name: string): { status: 'APPROVED' | 'REJECTED'; reason: string | null } {
  return name.startsWith('reject_') ? { status: 'REJECTED', reason: 'INVALID_FORMAT' } : { status: 'APPROVED', reason: null };
}

function publicView(t: TemplateRecord) {
  return { id: t.id, name: t.name, language: t.language, status: t.status, category: t.category, components: t.components };
}

export function createMessageTemplateHandlers(deps: MessageTemplatesDeps): {
  create: RequestHandler;
  list: RequestHandler;
  remove: RequestHandler;
} {
  /** Graph answers an id it does not know with code 100, whatever the operation. */
  const knownWaba = (req: Request, res: Response): boolean => {
    const wabaId = String(req.params.wabaId);
    if (wabaId === deps.wabaId) return true;
    sendGraphError(
      res,
      'invalidParameterGeneric',
      `Unsupported request. Object with ID '${wabaId}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    );
    return false;
  };

  const scheduleReview = (template: TemplateRecord) => {
    deps.scheduler.after(deps.templateReviewMs, () => {
      if (deps.templates.findById(template.id) !== template) return;
      const verdict = reviewTemplate(template.name);
      template.status = verdict.status;
      template.rejected_reason = verdict.reason;
      template.reviewed_at = new Date(deps.now()).toISOString();
      deps.logger.info('template reviewed', { name: template.name, language: template.language, status: template.status });
      deps.webhooks.sendTemplateStatus(template);
    });
  };

  const create: RequestHandler = (req, res) => {
    if (!knownWaba(req, res)) return;
    const body = (req.body ?? {}) as Record<string, unknown>;
    const { name, language, category, components } = body;
    const invalid = (details: string) => sendGraphError(res, 'invalidParameterGeneric', details);
    if (typeof name !== 'string' || !/^[a-z0-9_]{1,512}$/.test(name)) return invalid('name must be lowercase letters, digits and underscores');
    if (typeof language !== 'string' || !/^[A-Za-z]{2,3}(_[A-Za-z0-9]{2,4})?$/.test(language)) return invalid('language must be a locale code such as en_US');
    if (typeof category !== 'string' || !CATEGORIES.includes(category.toUpperCase())) return invalid('category must be AUTHENTICATION, MARKETING or UTILITY');
    if (!Array.isArray(components) || components.length === 0) return invalid('components must be a non-empty array');
    const bodyText = templateBodyText(components);
    if (bodyText === '') return invalid('components must include a BODY component with text');
    const existing = deps.templates.find(name, language);
    if (existing && existing.status !== 'REJECTED') {
      const error = graphErrorBody('invalidParameterGeneric', `Message template "${name}" already exists in ${language}.`);
      res.status(400).json({ error: { ...error.error, error_subcode: 2388024 } });
      return;
    }
    const template: TemplateRecord = {
      id: newGraphId(),
      name,
      language,
      category: category.toUpperCase(),
      status: 'PENDING',
      components,
      body_text: bodyText,
      placeholder_count: countPlaceholders(bodyText),
      rejected_reason: null,
      created_at: new Date(deps.now()).toISOString(),
      reviewed_at: null,
    };
    deps.templates.add(template);
    res.json({ id: template.id, status: template.status, category: template.category });
    scheduleReview(template);
  };

  const list: RequestHandler = (req, res) => {
    if (!knownWaba(req, res)) return;
    const name = typeof req.query.name === 'string' ? req.query.name : undefined;
    const data = deps.templates
      .list()
      .filter((t) => !name || t.name === name)
      .map(publicView);
    res.json({ data, paging: { cursors: { before: 'MAZDZD', after: 'MAZDZD' } } });
  };

  const remove: RequestHandler = (req, res) => {
    if (!knownWaba(req, res)) return;
    const name = typeof req.query.name === 'string' ? req.query.name : '';
    if (deps.templates.removeByName(name) === 0) {
      sendGraphError(res, 'invalidParameterGeneric', `Message template "${name}" was not found.`);
      return;
    }
    res.json({ success: true });
  };

  return { create, list, remove };
}
