import { newId, toIso } from '@switchboard/domain';
import type { Queryable } from '../db';

export type TemplateStatus = 'pending' | 'approved' | 'rejected';

export interface TemplateRow {
  id: string;
  account_id: string;
  mode: 'live' | 'test';
  name: string;
  language: string;
  category: string;
  components: unknown[];
  body_text: string;
  placeholder_count: number;
  status: TemplateStatus;
  rejection_reason: string | null;
  upstream_template_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** `GET /v1/templates/{id}` (docs/chat.md#templates). */
export interface TemplateResource {
  id: string;
  name: string;
  language: string;
  category: string;
  components: unknown[];
  status: TemplateStatus;
  rejection_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface NewTemplate {
  accountId: string;
  mode: 'live' | 'test';
  name: string;
  language: string;
  category: string;
  components: unknown[];
  bodyText: string;
  placeholderCount: number;
  at: Date;
}

export interface TemplateReview {
  upstreamTemplateId: string;
  name: string;
  language: string;
  status: 'approved' | 'rejected';
  reason?: string;
  at: Date;
}

export function toTemplateResource(row: TemplateRow): TemplateResource {
  return {
    id: row.id,
    name: row.name,
    language: row.language,
    category: row.category,
    components: row.components,
    status: row.status,
    rejection_reason: row.rejection_reason,
    created_at: toIso(row.created_at) as string,
    updated_at: toIso(row.updated_at) as string,
  };
}

export function createTemplatesRepository(db: Queryable) {
  return {
    /** Null when the account already has a template with that name and language. */
    async create(t: NewTemplate): Promise<TemplateRow | null> {
      const { rows } = await db.query<TemplateRow>(
        `INSERT INTO templates (id, account_id, mode, name, language, category, components, body_text, placeholder_count, status, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $10, $10)
         ON CONFLICT (account_id, name, language) DO NOTHING RETURNING *`,
        [newId('tpl'), t.accountId, t.mode, t.name, t.language, t.category, JSON.stringify(t.components), t.bodyText, t.placeholderCount, t.at],
      );
      return rows[0] ?? null;
    },

    async findById(id: string): Promise<TemplateRow | null> {
      const { rows } = await db.query<TemplateRow>('SELECT * FROM templates WHERE id = $1', [id]);
      return rows[0] ?? null;
    },

    /** Scoped to the account: another account's template is indistinguishable from a missing one. */
    async findForAccount(accountId: string, id: string): Promise<TemplateRow | null> {
      const { rows } = await db.query<TemplateRow>('SELECT * FROM templates WHERE id = $1 AND account_id = $2', [id, accountId]);
      return rows[0] ?? null;
    },

    async findByName(accountId: string, name: string, language: string): Promise<TemplateRow | null> {
      const { rows } = await db.query<TemplateRow>('SELECT * FROM templates WHERE account_id = $1 AND name = $2 AND language = $3', [
        accountId,
        name,
        language,
      ]);
      return rows[0] ?? null;
    },

    /** Newest first; `beforeId` continues below the last id of the previous page. */
    async list(accountId: string, page: { beforeId?: string; limit: number }): Promise<TemplateRow[]> {
      const { rows } = await db.query<TemplateRow>(
        `SELECT * FROM templates WHERE account_id = $1 AND ($2::text IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
        [accountId, page.beforeId ?? null, page.limit],
      );
      return rows;
    },

    async remove(accountId: string, id: string): Promise<boolean> {
      const { rowCount } = await db.query('DELETE FROM templates WHERE id = $1 AND account_id = $2', [id, accountId]);
      return (rowCount ?? 0) > 0;
    },

    /** Records the upstream's id once submitted; an answer that already carries a verdict is applied too. */
    async markSubmitted(id: string, upstreamTemplateId: string, status: TemplateStatus, at: Date): Promise<void> {
      await db.query(
        `UPDATE templates SET upstream_template_id = $2, status = CASE WHEN status = 'pending' THEN $3 ELSE status END, updated_at = $4
         WHERE id = $1`,
        [id, upstreamTemplateId, status, at],
      );
    },

    /** The upstream refused the submission itself (for example a name it already holds). */
    async markRejected(id: string, reason: string, at: Date): Promise<void> {
      await db.query(`UPDATE templates SET status = 'rejected', rejection_reason = $2, updated_at = $3 WHERE id = $1 AND status = 'pending'`, [id, reason, at]);
    },

    /**
     * Applies a `message_template_status_update`. Matched on the upstream id; a review that overtakes the
     * recording of that id (the upstream answers creation and reviews moments later) matches a pending
     * template of that name and language that has no upstream id yet. Returns the rows changed.
     */
    async applyReview(review: TemplateReview): Promise<TemplateRow[]> {
      const { rows } = await db.query<TemplateRow>(
        `UPDATE templates SET status = $4, rejection_reason = $5, updated_at = $6,
           upstream_template_id = COALESCE(upstream_template_id, $1)
         WHERE upstream_template_id = $1
            OR (upstream_template_id IS NULL AND status = 'pending' AND name = $2 AND language = $3)
         RETURNING *`,
        [
          review.upstreamTemplateId,
          review.name,
          review.language,
          review.status,
          review.status === 'rejected' ? (review.reason ?? 'rejected') : null,
          review.at,
        ],
      );
      return rows;
    },
  };
}
export type TemplatesRepository = ReturnType<typeof createTemplatesRepository>;
