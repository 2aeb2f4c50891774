import { ProviderError, type OutboundContent } from '@switchboard/providers';
import { checkWebhookUrl, TargetRefusedError, type Resolver, type TargetPolicy } from '@switchboard/webhooks';
import { createGuardedHead, type MediaHead } from './guarded-head';

/** What may be sent behind a media link, by chat type (docs/chat.md#image-document-audio; the Cloud API's supported media). */
const MEDIA_RULES: Readonly<Record<'image' | 'document' | 'audio', { mimeTypes: readonly string[]; maxBytes: number }>> = {
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
   * Plain http links are refused (docs/chat.md#image-document-audio) unless this is set, for local stacks and tests.
   * @defaultValue false
   */
  allowHttp?: boolean;
  /**
   * Links to loopback, private, link-local… addresses are refused (SSRF) unless this is set, for local
   * stacks and tests whose media the carrier simulator serves on 127.0.0.1. Cloud metadata addresses
   * stay refused whatever it says.
   * @defaultValue false
   */
  allowPrivateNetworks?: boolean;
  /** Host names whose resolved addresses skip the range check, as for webhooks (metadata still refused). @defaultValue [] */
  allowedHosts?: readonly string[];
  /** @defaultValue {@link MEDIA_CHECK_TIMEOUT_MS} */
  timeoutMs?: number;
  /** @defaultValue a guarded HEAD ({@link createGuardedHead}) */
  fetch?: MediaHead;
  /** Name resolution of the default guarded HEAD. @defaultValue the system resolver */
  resolver?: Resolver;
}

/** 5 s for a HEAD: a media host answers one in well under a second, and a longer wait holds a send for nothing (docs/chat.md#image-document-audio). */
export const MEDIA_CHECK_TIMEOUT_MS = 5_000;

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
export function createMediaCheck({
  allowHttp = false,
  allowPrivateNetworks = false,
  allowedHosts = [],
  timeoutMs = MEDIA_CHECK_TIMEOUT_MS,
  resolver,
  fetch: head,
}: MediaCheckOptions = {}) {
  // The same target guard as webhook deliveries: the link is a client-chosen URL we connect to.
  const policy: TargetPolicy = { allowHttp, allowPrivateNetworks, allowedHosts };
  const headOf = head ?? createGuardedHead(policy, resolver);
  return async (content: OutboundContent): Promise<void> => {
    if (content.kind !== 'chat' || !isMediaType(content.type)) return;
    const rules = MEDIA_RULES[content.type];
    const link = content.payload.link;
    if (typeof link !== 'string') throw refuse('media_link_not_allowed', `${content.type}.link is not a URL`);
    // Scheme (https unless allowHttp), credentials, and IP-literal hosts; names are checked at connect time.
    const verdict = checkWebhookUrl(link, policy);
    if (!verdict.allowed) throw refuse('media_link_not_allowed', `${content.type}.link is refused: ${verdict.reason}`);

    let response: Awaited<ReturnType<MediaHead>>;
    try {
      response = await headOf(link, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      if (error instanceof TargetRefusedError) throw refuse('media_link_not_allowed', `${content.type}.link is refused: ${error.reason}`);
      throw refuse('media_unreachable', `HEAD ${link} failed: ${(error as Error).message}`);
    }
    // A redirect could lead anywhere, an internal address included; the link must name the file itself.
    if (response.status >= 300 && response.status < 400) {
      throw refuse('media_link_not_allowed', `${content.type}.link redirects (HEAD answered ${response.status}); redirects are not followed`);
    }
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
