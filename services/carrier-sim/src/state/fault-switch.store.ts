/**
 * Run-time faults of the simulated upstreams, one per channel, switched on and off through
 * `POST/DELETE /sim/faults` so a test can take one upstream down mid-run and bring it back
 * (docs/sandbox.md#faults-at-run-time).
 * - `down`: every send is refused with a transient error that proves nothing was taken: the SMSC
 *   answers ESME_RSYSERR (0x08) while its bind stays up, the Cloud API and RBM answer 503;
 * - `slow`: every send is answered after `delay_ms`;
 * - `errors`: a share (`error_rate`, 0..1) of sends is refused as in `down`.
 */
export type FaultMode = 'down' | 'slow' | 'errors';

export const FAULT_CHANNELS = ['sms', 'chat', 'rcs'] as const;
export type FaultChannel = (typeof FAULT_CHANNELS)[number];

export interface UpstreamFault {
  mode: FaultMode;
  delayMs: number;
  errorRate: number;
}

export interface FaultSwitchStore {
  set(fault: UpstreamFault, channel?: FaultChannel): void;
  /** Clears one channel's fault, or every channel's without one. */
  clear(channel?: FaultChannel): void;
  current(channel?: FaultChannel): UpstreamFault | null;
  all(): Array<{ channel: FaultChannel; fault: UpstreamFault }>;
}

/** What the fault decides for one send: refuse it, delay it, or let it through. */
export function faultVerdict(fault: UpstreamFault | null, random: () => number = Math.random): 'refuse' | 'delay' | 'pass' {
  if (!fault) return 'pass';
  if (fault.mode === 'down' || (fault.mode === 'errors' && random() < fault.errorRate)) return 'refuse';
  return fault.mode === 'slow' ? 'delay' : 'pass';
}

export function createFaultSwitchStore(): FaultSwitchStore {
  const faults = new Map<FaultChannel, UpstreamFault>();
  return {
    set: (next, channel = 'sms') => {
      faults.set(channel, next);
    },
    clear: (channel) => {
      if (channel) faults.delete(channel);
      else faults.clear();
    },
    current: (channel = 'sms') => faults.get(channel) ?? null,
    all: () =>
      FAULT_CHANNELS.flatMap((channel) => {
        const fault = faults.get(channel);
        return fault ? [{ channel, fault }] : [];
      }),
  };
}
