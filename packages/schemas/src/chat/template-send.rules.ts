import { templateParameters, UnprocessableError, type TemplateReference } from '@switchboard/domain';

/** What a send needs to know of a stored template. */
export interface StoredTemplateFacts {
  status: 'pending' | 'approved' | 'rejected';
  placeholder_count: number;
}

/**
 * The checks of a template send (docs/chat.md#sending-a-template), in order: it exists under that name and language, it is
 * approved, and the parameters fill its placeholders exactly. `at` is the template reference's pointer
 * (`/template`, or `/content/template` for a chat payload on `POST /v1/messages`).
 */
export function templateSendProblem(stored: StoredTemplateFacts | null, reference: TemplateReference, at: string): UnprocessableError | null {
  if (!stored) {
    return new UnprocessableError('template_not_found', `There is no template "${reference.name}" in language "${reference.language}".`, [
      { field: `${at}/name`, message: 'names no template in this language' },
    ]);
  }
  if (stored.status !== 'approved') {
    return new UnprocessableError('template_not_approved', `The template "${reference.name}" is ${stored.status}; only approved templates can be sent.`, [
      { field: `${at}/name`, message: `is ${stored.status}` },
    ]);
  }
  const given = templateParameters(reference).length;
  if (given !== stored.placeholder_count) {
    const field = reference.components !== undefined ? `${at}/components` : `${at}/parameters`;
    return new UnprocessableError(
      'template_parameter_mismatch',
      `The template "${reference.name}" has ${stored.placeholder_count} placeholder(s); ${given} parameter(s) were given.`,
      [{ field, message: `must give ${stored.placeholder_count} parameter(s), got ${given}` }],
    );
  }
  return null;
}
