/**
 * The keywords carriers require us to honour (docs/routing.md#opt-out): a customer who writes one of
 * them, alone, is added to (or removed from) the account's suppression list for that channel.
 */
export const OPT_OUT_KEYWORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT'] as const;
export const OPT_IN_KEYWORDS = ['START', 'UNSTOP'] as const;

export type OptOutAction = 'opt_out' | 'opt_in';

/** What an inbound text asks for: the whole text, trimmed and in any case, must be one keyword. */
export function optOutAction(text: string | undefined | null): OptOutAction | null {
  if (typeof text !== 'string') return null;
  const word = text.trim().toUpperCase();
  if ((OPT_OUT_KEYWORDS as readonly string[]).includes(word)) return 'opt_out';
  if ((OPT_IN_KEYWORDS as readonly string[]).includes(word)) return 'opt_in';
  return null;
}
