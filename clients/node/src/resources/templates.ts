import { PageIterator } from '../pagination';
import type { Transport } from '../transport';
import type { Page, PageQuery, Template, TemplateCreateRequest } from '../types';
import { route } from './path';

export type TemplateListQuery = PageQuery;

/** Chat templates, reviewed by the upstream before use (docs/chat.md). */
export class Templates {
  constructor(private readonly transport: Transport) {}

  create(template: TemplateCreateRequest): Promise<Template> {
    return this.transport.request('POST', '/v1/templates', { body: template });
  }

  get(id: string): Promise<Template> {
    return this.transport.request('GET', route`/v1/templates/${id}`);
  }

  listPage(query: TemplateListQuery = {}): Promise<Page<Template>> {
    return this.transport.request('GET', '/v1/templates', { query: { ...query } });
  }

  list(query: Omit<TemplateListQuery, 'cursor'> = {}): PageIterator<Template> {
    return new PageIterator((cursor) => this.listPage({ ...query, cursor }));
  }

  async delete(id: string): Promise<void> {
    await this.transport.request('DELETE', route`/v1/templates/${id}`);
  }
}
