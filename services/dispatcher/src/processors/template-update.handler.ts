import type { Job } from 'bullmq';
import type { UpstreamTemplateUpdate } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';
import type { ProviderCallbackJob } from '@switchboard/queues';
import type { TemplatesRepository } from '@switchboard/store';

export interface TemplateUpdateHandlerDeps {
  templates: Pick<TemplatesRepository, 'applyReview'>;
  logger: Logger;
  clock: () => number;
}

/**
 * Applies `message_template_status_update` reviews (docs/chat.md#templates): pending becomes approved or
 * rejected. Idempotent, as the callback job may run again. A review of a template we do not hold
 * (deleted meanwhile, or made outside Switchboard on the same business account) is only logged.
 */
export function createTemplateUpdateHandler({ templates, logger, clock }: TemplateUpdateHandlerDeps) {
  return async (items: UpstreamTemplateUpdate[], job: Job<ProviderCallbackJob>): Promise<void> => {
    for (const item of items) {
      const fields = { job_id: job.id, upstream_template_id: item.upstreamTemplateId, name: item.name, language: item.language, status: item.status };
      if (!item.upstreamTemplateId || (item.status !== 'approved' && item.status !== 'rejected')) {
        logger.warn('template update unreadable; skipped', fields);
        continue;
      }
      const changed = await templates.applyReview({ ...item, at: new Date(clock()) });
      if (changed.length === 0) logger.info('template update matches no template', fields);
      else logger.info('template reviewed', { ...fields, template_ids: changed.map((t) => t.id) });
    }
  };
}
