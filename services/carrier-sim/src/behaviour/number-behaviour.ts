/**
 * The sandbox number table (docs/sandbox.md#sandbox-numbers): a recipient's last two digits choose what every
 * simulated upstream does with it. Pure functions only, so each route and the SMSC share one
 * reading of the table.
 */

export type Channel = 'chat' | 'rcs' | 'sms';

/** How many throttled answers an `05` number gets before a send to it is accepted. */
export const THROTTLES_BEFORE_ACCEPT = 3;

export interface NumberBehaviour {
  readonly suffix: string;
  /** `01`: the chat upstream does not know this number (131026). */
  readonly notChatUser: boolean;
  /** `02`: the RBM capability check and sends answer 404. */
  readonly notRcsCapable: boolean;
  /** `03`: every upstream rejects a send permanently. */
  readonly rejectedPermanently: boolean;
  /** `05`: throttled this many times, then accepted. */
  readonly throttles: number;
  /** `04` never gets a delivery report. */
  readonly delivers: boolean;
  /** `04` and `06` never get a read report. */
  readonly reads: boolean;
}

export function lastTwoDigits(recipient: string): string {
  const digits = recipient.replace(/\D/g, '');
  return digits.slice(-2).padStart(2, '0');
}

export function behaviourFor(recipient: string): NumberBehaviour {
  const suffix = lastTwoDigits(recipient);
  return {
    suffix,
    notChatUser: suffix === '01',
    notRcsCapable: suffix === '02',
    rejectedPermanently: suffix === '03',
    throttles: suffix === '05' ? THROTTLES_BEFORE_ACCEPT : 0,
    delivers: suffix !== '04',
    reads: suffix !== '04' && suffix !== '06',
  };
}

export type SendVerdict = 'accept' | 'not_chat_user' | 'not_rcs_capable' | 'reject' | 'throttle';

/**
 * What the upstream of `channel` answers to a send to `recipient`.
 * @param throttledSoFar throttled answers this channel gave the recipient since its last
 *   accepted send; a `05` number is throttled until this reaches {@link THROTTLES_BEFORE_ACCEPT}.
 */
export function sendVerdict(channel: Channel, recipient: string, throttledSoFar: number): SendVerdict {
  const behaviour = behaviourFor(recipient);
  if (channel === 'chat' && behaviour.notChatUser) return 'not_chat_user';
  if (channel === 'rcs' && behaviour.notRcsCapable) return 'not_rcs_capable';
  if (behaviour.rejectedPermanently) return 'reject';
  if (throttledSoFar < behaviour.throttles) return 'throttle';
  return 'accept';
}

export function isRcsCapable(recipient: string): boolean {
  return !behaviourFor(recipient).notRcsCapable;
}

export interface ReportPlan {
  /** Chat only: the Cloud API reports `sent` as soon as it hands the message on. */
  readonly sent: boolean;
  readonly delivered: boolean;
  /** SMS has no read reports. */
  readonly read: boolean;
}

/** Which status reports follow an accepted send. */
export function reportPlan(channel: Channel, recipient: string): ReportPlan {
  const behaviour = behaviourFor(recipient);
  return {
    sent: channel === 'chat',
    delivered: behaviour.delivers,
    read: channel !== 'sms' && behaviour.delivers && behaviour.reads,
  };
}
