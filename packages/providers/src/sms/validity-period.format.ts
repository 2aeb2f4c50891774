/**
 * SMPP v3.4 §7.1.1 relative time, `YYMMDDhhmmss000R`, for a submit_sm `validity_period`: how long the
 * SMSC keeps trying before it gives up on the message. Years and months are never used, since a TTL
 * is at most days; days go up to 99.
 */
export function relativeValidityPeriod(seconds: number): string {
  const total = Math.max(1, Math.min(Math.ceil(seconds), 99 * 86_400 + 86_399));
  const two = (n: number) => String(n).padStart(2, '0');
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3_600);
  const minutes = Math.floor((total % 3_600) / 60);
  return `0000${two(days)}${two(hours)}${two(minutes)}${two(total % 60)}000R`;
}
