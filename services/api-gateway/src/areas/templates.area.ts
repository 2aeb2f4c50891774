import type { Router } from 'express';
import { createTemplateCreateValidator } from '@switchboard/schemas';
import { createTemplatesRepository } from '@switchboard/store';
import { createTemplateHandlers, templatesRouter } from '../routes/templates.route';
import type { GatewayContext } from './gateway-context';

/** Chat templates (docs/chat.md#templates): created here, submitted upstream by the dispatcher. */
export function createTemplatesArea(ctx: GatewayContext): { handlers: ReturnType<typeof createTemplateHandlers>; router: Router } {
  const handlers = createTemplateHandlers({
    templates: createTemplatesRepository(ctx.db),
    submitQueue: ctx.templateQueue,
    validate: createTemplateCreateValidator(),
    guard: ctx.guard,
    logger: ctx.logger,
    clock: ctx.clock,
  });
  return { handlers, router: templatesRouter({ authenticate: ctx.authenticated('templates:write'), body: ctx.jsonBody(), handlers }) };
}
