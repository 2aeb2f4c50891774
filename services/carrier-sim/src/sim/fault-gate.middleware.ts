import type { RequestHandler, Response } from 'express';
import type { Logger } from '../support/json-logger';
import type { Scheduler } from '../support/scheduler';
import { faultVerdict, type FaultChannel, type FaultSwitchStore } from '../state/fault-switch.store';

/**
 * Applies a channel's run-time fault (docs/sandbox.md#faults-at-run-time) in front of its send endpoint:
 * a refused send is answered with the upstream's own 503 before anything is logged as sent, so the
 * send log only holds what this upstream took; a slow one is handled after the delay.
 */
export function createFaultGate(deps: {
  channel: FaultChannel;
  faults: FaultSwitchStore;
  scheduler: Scheduler;
  logger: Logger;
  refuse: (res: Response) => void;
}): RequestHandler {
  return (_req, res, next) => {
    const fault = deps.faults.current(deps.channel);
    const verdict = faultVerdict(fault);
    if (verdict === 'refuse') {
      deps.logger.info('send refused by a run-time fault', { channel: deps.channel, mode: fault?.mode, status: 503 });
      deps.refuse(res);
      return;
    }
    if (fault && verdict === 'delay') {
      deps.scheduler.after(fault.delayMs, () => next());
      return;
    }
    next();
  };
}
