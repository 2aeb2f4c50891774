import { UnrecoverableError, type Job } from 'bullmq';
import type { Logger } from '@switchboard/logger';
import { isProviderError, type TemplateDraft } from '@switchboard/providers';
import type { SubmitTemplateJob } from '@switchboard/queues';
import { JOB_PAYLOAD_CHECKS } from '@switchboard/schemas';
import type { TemplateRow, TemplatesRepository } from '@switchboard/store';
import type { AdaptersByMode } from '../upstreams/adapter-sets';

export interface TemplateSubmitDeps {
  templates: Pick<TemplatesRepository, 'findById' | 'markSubmitted' | 'markRejected'>;
  providers: AdaptersByMode;
  logger: Logger;
  clock: () => number;
}

type Component = Record<string, unknown>;

/**
 * Our lower-case definition in the Graph API's spelling: component types, header formats and button
 * types are upper case there (`BODY`, `TEXT`, `QUICK_REPLY`).
 * https://developers.facebook.com/docs/whatsapp/business-management-api/message-templates
 */
export function toGraphComponents(components: unknown[]): unknown[] {
  return components.map((raw) => {
    const c = { ...(raw as Component) };
    c.type = String(c.type).toUpperCase();
    // The template schema (packages/schemas) lets a header's format be one of its strings or absent.
    if (c.type === 'HEADER') c.format = (typeof c.format === 'string' ? c.format : 'text').toUpperCase();
    if (Array.isArray(c.buttons)) c.buttons = c.buttons.map((b: Component) => ({ ...b, type: String(b.type).toUpperCase() }));
    return c;
  });
}

function draftOf(row: TemplateRow): TemplateDraft {
  return { name: row.name, language: row.language, category: row.category, components: toGraphComponents(row.components) };
}

/**
 * Submits a created template to the chat upstream of its key's mode and records the upstream id; the
 * verdict arrives later as a `message_template_status_update` webhook. A refusal of the submission
 * itself rejects the template; network trouble and 5xx throw, and BullMQ's backoff retries.
 */
export function createTemplateSubmitProcessor({ templates, providers, logger, clock }: TemplateSubmitDeps) {
  return async (job: Job<SubmitTemplateJob>): Promise<void> => {
    const invalid = JOB_PAYLOAD_CHECKS.submitTemplate(job.data);
    if (invalid) throw new UnrecoverableError(invalid);
    const { template_id: id, mode } = job.data;
    const row = await templates.findById(id);
    const fields = { job_id: job.id, template_id: id };
    if (!row || row.status !== 'pending' || row.upstream_template_id !== null) {
      logger.debug('template needs no submission', { ...fields, status: row?.status ?? 'deleted' });
      return;
    }
    try {
      const created = await providers[mode].chat.createTemplate(draftOf(row));
      await templates.markSubmitted(id, created.upstreamTemplateId, created.status, new Date(clock()));
      logger.info('template submitted', { ...fields, upstream_template_id: created.upstreamTemplateId, status: created.status });
    } catch (error) {
      if (isProviderError(error) && (error.kind === 'permanent' || error.kind === 'template_invalid')) {
        await templates.markRejected(id, `${error.upstreamCode}: ${error.message}`, new Date(clock()));
        logger.warn('template refused by the upstream', { ...fields, upstream_code: error.upstreamCode });
        return;
      }
      throw error;
    }
  };
}
