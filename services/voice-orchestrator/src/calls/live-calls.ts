import type { Redis } from 'ioredis';
import type { Logger } from '@switchboard/logger';
import { voiceHangupChannel } from '@switchboard/queues';
import type { CallLeg } from '@switchboard/telephony';

/**
 * The calls whose media session lives in this process (docs/voice.md#hangup): the gateway's hangup requests
 * arrive on one Redis pub/sub channel that every orchestrator hears; only the process holding the leg acts.
 */
export function createLiveCalls({ subscriber, prefix, logger }: { subscriber: Redis; prefix: string; logger: Logger }) {
  const legs = new Map<string, CallLeg>();
  const channel = voiceHangupChannel(prefix);
  subscriber.on('message', (from: string, callId: string) => {
    if (from !== channel) return;
    const leg = legs.get(callId);
    if (!leg) return;
    logger.info('hangup requested', { call_id: callId });
    void leg.hangup('hangup_api');
  });
  return {
    async listen(): Promise<void> {
      await subscriber.subscribe(channel);
    },
    add(callId: string, leg: CallLeg): void {
      legs.set(callId, leg);
    },
    remove(callId: string): void {
      legs.delete(callId);
    },
    ids(): string[] {
      return [...legs.keys()];
    },
    /** Hangs up every call this process holds (shutdown). */
    async hangupAll(reason: string): Promise<void> {
      await Promise.all([...legs.values()].map((leg) => leg.hangup(reason)));
    },
  };
}
export type LiveCalls = ReturnType<typeof createLiveCalls>;
