import { isProviderError } from '@switchboard/providers';

/** Chat media content pointing at `link`. */
export const media = (type: string, link = 'https://cdn.example.com/f') => ({ kind: 'chat' as const, type, payload: { link } });

/** The `error.code` a media check ended with, or null when it passed. */
export async function codeOf(promise: Promise<void>): Promise<string | null> {
  try {
    await promise;
    return null;
  } catch (error) {
    if (isProviderError(error) && error.kind === 'permanent') return error.upstreamCode;
    throw error;
  }
}
