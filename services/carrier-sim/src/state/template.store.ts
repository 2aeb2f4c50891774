export type TemplateStatus = 'PENDING' | 'APPROVED' | 'REJECTED';

export interface TemplateRecord {
  id: string;
  name: string;
  language: string;
  category: string;
  status: TemplateStatus;
  components: unknown[];
  body_text: string;
  placeholder_count: number;
  rejected_reason: string | null;
  created_at: string;
  reviewed_at: string | null;
}

export interface TemplateStore {
  add(template: TemplateRecord): void;
  find(name: string, language: string): TemplateRecord | undefined;
  findById(id: string): TemplateRecord | undefined;
  knowsName(name: string): boolean;
  list(): TemplateRecord[];
  /** Removes every language of `name`, as the Graph API's delete-by-name does. */
  removeByName(name: string): number;
}

export function createTemplateStore(): TemplateStore {
  const byKey = new Map<string, TemplateRecord>();
  const key = (name: string, language: string) => `${name}\u0000${language}`;
  return {
    add(template) {
      byKey.set(key(template.name, template.language), template);
    },
    find(name, language) {
      return byKey.get(key(name, language));
    },
    findById(id) {
      return [...byKey.values()].find((t) => t.id === id);
    },
    knowsName(name) {
      return [...byKey.values()].some((t) => t.name === name);
    },
    list() {
      return [...byKey.values()];
    },
    removeByName(name) {
      let removed = 0;
      for (const [k, t] of byKey) {
        if (t.name === name) {
          byKey.delete(k);
          removed += 1;
        }
      }
      return removed;
    },
  };
}
