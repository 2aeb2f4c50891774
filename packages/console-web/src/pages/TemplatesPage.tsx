import type { FormEvent } from 'react';
import { api, formText, type Page } from '../api';
import { ListTable } from '../components/ListTable';
import { EmptyState, ProblemMessage, StatusBadge, Time } from '../components/ui';
import { useCanEdit } from '../session';
import { useAction } from '../useAction';
import { useLoad } from '../useLoad';

interface Template {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  rejection_reason?: string | null;
  created_at: string;
}

export function TemplatesPage() {
  const canEdit = useCanEdit();
  // Polled: the upstream's review moves a template from pending to approved or rejected.
  const list = useLoad(() => api<Page<Template>>('GET', '/v1/templates?limit=100'), [], 3000);
  const { error, act } = useAction(list.reload);

  function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const components: Array<Record<string, string>> = [];
    const header = formText(form, 'header').trim();
    if (header) components.push({ type: 'header', text: header });
    components.push({ type: 'body', text: formText(form, 'body') });
    const footer = formText(form, 'footer').trim();
    if (footer) components.push({ type: 'footer', text: footer });
    void act(() => api('POST', '/v1/templates', { name: form.get('name'), language: form.get('language'), category: form.get('category'), components }));
  }

  return (
    <>
      <h1>Templates</h1>
      <ProblemMessage error={error ?? list.error} />
      {canEdit && (
        <section aria-labelledby="new-template">
          <h2 id="new-template">Create a chat template</h2>
          <form onSubmit={create} className="card">
            <label>
              Name (lowercase letters, digits and _)
              <input name="name" required pattern="[a-z0-9_]+" />
            </label>
            <label>
              Language
              <input name="language" required defaultValue="en_US" />
            </label>
            <label>
              Category
              <select name="category" defaultValue="utility">
                <option>utility</option>
                <option>marketing</option>
                <option>authentication</option>
              </select>
            </label>
            <label>
              Header (optional)
              <input name="header" />
            </label>
            <label>
              Body, with placeholders {'{{1}}'}, {'{{2}}'}…
              <textarea name="body" required maxLength={1024} rows={3} />
            </label>
            <label>
              Footer (optional)
              <input name="footer" />
            </label>
            <button type="submit">Submit for review</button>
          </form>
        </section>
      )}
      <section aria-labelledby="template-list">
        <h2 id="template-list">Templates</h2>
        <ListTable
          headers={['Name', 'Language', 'Category', 'Status', 'Created', 'Action']}
          rows={list.data?.data}
          empty={
            <EmptyState title="No templates yet">
              <p>Chat messages outside the 24-hour customer service window must use an approved template.</p>
            </EmptyState>
          }
        >
          {(t) => (
            <tr key={t.id} data-template={t.name}>
              <td>
                <code>{t.name}</code>
              </td>
              <td>{t.language}</td>
              <td>{t.category}</td>
              <td>
                <StatusBadge status={t.status} /> {t.rejection_reason ?? ''}
              </td>
              <td>
                <Time value={t.created_at} />
              </td>
              <td>
                {canEdit && (
                  <button
                    type="button"
                    className="danger"
                    onClick={() => void act(() => api('DELETE', `/v1/templates/${t.id}`))}
                    aria-label={`Delete template ${t.name}`}
                  >
                    Delete
                  </button>
                )}
              </td>
            </tr>
          )}
        </ListTable>
      </section>
    </>
  );
}
