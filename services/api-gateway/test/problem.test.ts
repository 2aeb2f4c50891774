import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from '@switchboard/domain';
import { problemDocument } from '../src/http/problem';

describe('problem documents (RFC 9457, docs/errors.md)', () => {
  it('carries type, title, status, detail, code, request_id and the field errors', () => {
    const error = new ValidationError([{ field: '/recipient', message: 'is required' }]);
    expect(problemDocument(error, 'req-1')).toEqual({
      type: '/errors/validation_failed',
      title: 'Validation failed',
      status: 400,
      detail: 'The request does not match the schema.',
      code: 'validation_failed',
      request_id: 'req-1',
      errors: [{ field: '/recipient', message: 'is required' }],
    });
  });

  it('omits errors when there are none and adds error_id only when given', () => {
    const doc = problemDocument(new NotFoundError(), 'req-2');
    expect(doc).not.toHaveProperty('errors');
    expect(doc).not.toHaveProperty('error_id');
    expect(doc.type).toBe('/errors/not_found');
    expect(problemDocument(new ConflictError('idempotency_key_in_use', 'busy'), 'r', 'e-1').error_id).toBe('e-1');
  });

  it('uses the specific code of a 422 in type and code', () => {
    const doc = problemDocument(new UnprocessableError('no_sender_for_channel', 'none'), 'r');
    expect(doc).toMatchObject({ status: 422, code: 'no_sender_for_channel', type: '/errors/no_sender_for_channel' });
  });
});
