/**
 * Run-time faults of the simulated SMSC, switched on and off through `POST/DELETE /sim/faults` so a
 * test can take one upstream down mid-run and bring it back (docs/sandbox.md#faults-at-run-time).
 * - `down`: every submit_sm is answered ESME_RSYSERR (0x08), a transient refusal that proves nothing
 *   was taken, which is what a failing SMSC answers while its bind stays up;
 * - `slow`: every submit_sm is answered after `delay_ms`;
 * - `errors`: a share (`error_rate`, 0..1) of submit_sm is answered ESME_RSYSERR.
 */
export type FaultMode = 'down' | 'slow' | 'errors';

export interface SmsFault {
  mode: FaultMode;
  delayMs: number;
  errorRate: number;
}

export interface FaultSwitchStore {
  set(fault: SmsFault): void;
  clear(): void;
  current(): SmsFault | null;
}

export function createFaultSwitchStore(): FaultSwitchStore {
  let fault: SmsFault | null = null;
  return {
    set: (next) => {
      fault = next;
    },
    clear: () => {
      fault = null;
    },
    current: () => fault,
  };
}
