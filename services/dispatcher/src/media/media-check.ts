import { ProviderError, type OutboundContent } from '@switchboard/providers';

/** What may be sent behind a media link, by chat type (contract §4; the Cloud API's supported media). */
export const MEDIA_RULES: Readonly<Record<'image' | 'document' | 'audio', { mimeTypes: readonly string[]; maxBytes: number }>> = {
  image: { mimeTypes: ['image/jpeg', 'image/png'], maxBytes: 5 * 1024 * 1024 },
  document: {
    mimeTypes: [
      'application/pdf',
      'application/msword',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.ms-excel',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.ms-powerpoint',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    ],
    maxBytes: 100 * 1024 * 1024,
  },
  audio: { mimeTypes: ['audio/aac', 'audio/amr', 'audio/mpeg', 'audio/mp4', 'audio/ogg'], maxBytes: 16 * 1024 * 1024 },
};

/** The message error codes a failed media check ends with; the send-failure policy keeps them as they are. */
export const MEDIA_ERROR_CODES = ['media_link_not_allowed', 'media_unreachable', 'media_type_not_allowed', 'media_too_large'] as const;

export interface MediaCheckOptions {
  /**
   * Plain http links are refused (contract §4) unless this is set, for local stacks and tests.
   * @defaultValue false
   */
  allowHttp?: boolean;
  /** @defaultValue 5000 */
  timeoutMs?: number;
  /** @defaultValue global fetch */
  fetch?: typeof fetch;
}

const refuse = (code: (typeof MEDIA_ERROR_CODES)[number], message: string) => new ProviderError('permanent', code, message);

function isMediaType(type: string): type is keyof typeof MEDIA_RULES {
  return Object.prototype.hasOwnProperty.call(MEDIA_RULES, type);
}

/**
 * Before a chat media message is sent: a HEAD on its link must answer 2xx with an allowed MIME type
 * and, when it states one, a size within the type's limit. The upstream would fetch the link itself
 * and fail asynchronously with a vague error; checking first gives the client a precise `error.code`.
 * Throws a permanent `ProviderError` whose code is one of {@link MEDIA_ERROR_CODES}.
 */
export function createMediaCheck({ allowHttp = false, timeoutMs = 5_000, fetch: fetchImpl = fetch }: MediaCheckOptions = {}) {
  return async (content: OutboundContent): Promise<void> => {
    if (content.kind !== 'chat' || !isMediaType(content.type)) return;
    const rules = MEDIA_RULES[content.type];
    const link = content.payload.link;
    if (typeof link !== 'string' || !URL.canParse(link)) throw refuse('media_link_not_allowed', `${content.type}.link is not a URL`);
    const allowed = (url: string) => url.startsWith('https://') || (allowHttp && url.startsWith('http://'));
    if (!allowed(link)) throw refuse('media_link_not_allowed', `${content.type}.link must be an https URL`);

    let response: Response;
    try {
      response = await fetchImpl(link, { method: 'HEAD', redirect: 'follow', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw refuse('media_unreachable', `HEAD ${link} failed: ${(error as Error).message}`);
    }
    // A redirect must not lead from https to plain http.
    if (response.url && !allowed(response.url)) throw refuse('media_link_not_allowed', `${content.type}.link redirects to a non-https URL`);
    if (!response.ok) throw refuse('media_unreachable', `HEAD ${link} answered ${response.status}`);

    const mimeType = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (!rules.mimeTypes.includes(mimeType)) {
      throw refuse('media_type_not_allowed', `${content.type} must be one of ${rules.mimeTypes.join(', ')}; the link serves ${mimeType || 'no type'}`);
    }
    // Servers that do not state a length get the benefit of the doubt; the upstream enforces the limit too.
    const length = Number(response.headers.get('content-length') ?? NaN);
    if (Number.isFinite(length) && length > rules.maxBytes) {
      throw refuse('media_too_large', `${content.type} may be at most ${rules.maxBytes} bytes; the link serves ${length}`);
    }
  };
}
export type MediaCheck = ReturnType<typeof createMediaCheck>;
