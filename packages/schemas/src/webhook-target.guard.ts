import { checkWebhookUrl, type TargetPolicy } from '@switchboard/webhooks';

/** Where a webhook target may point (docs/webhooks.md#target-guard-ssrf); the one guard lives in `@switchboard/webhooks`. */
export type WebhookTargetPolicy = TargetPolicy;

/** Why a `callback_url` or endpoint URL is refused at registration, or null when it may be used. */
export function webhookUrlRefusal(url: URL, policy: WebhookTargetPolicy): string | null {
  const verdict = checkWebhookUrl(url.toString(), policy);
  return verdict.allowed ? null : verdict.reason;
}
