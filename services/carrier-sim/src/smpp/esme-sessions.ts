import type { PDU, PduOptions, Session } from 'smpp';
import type { Logger } from '../support/json-logger';
import type { Scheduler } from '../support/scheduler';

export type BindMode = 'transceiver' | 'transmitter' | 'receiver';

export interface Binding {
  systemId: string;
  mode: BindMode;
}

/** A deliver_sm (receipt or mobile-originated message) waiting for, or on its way to, an ESME. */
interface PendingDeliver {
  systemId: string;
  preferred?: Session;
  options: PduOptions;
  kind: string;
  attempts: number;
}

export interface EsmeSessions {
  bind(session: Session, binding: Binding): void;
  bindingOf(session: Session): Binding | undefined;
  /** Forgets the session and requeues deliver_sm it had not acknowledged. */
  drop(session: Session): void;
  /**
   * Delivers on `preferred` when it can still receive, else on any receiving session of `systemId`,
   * else holds the PDU until one binds, as a store-and-forward SMSC does.
   */
  deliver(systemId: string, preferred: Session | undefined, options: PduOptions, kind: string): void;
  receivingSessions(): Session[];
  pendingCount(): number;
  /** deliver_sm written to a bind and not yet answered by the ESME. */
  unacknowledgedCount(): number;
}

const canReceive = (binding: Binding | undefined) => binding !== undefined && binding.mode !== 'transmitter';

export function createEsmeSessions(deps: { scheduler: Scheduler; logger: Logger; retryDelaysMs: readonly number[] }): EsmeSessions {
  const bindings = new Map<Session, Binding>();
  const unacknowledged = new Map<Session, Set<PendingDeliver>>();
  const waiting: PendingDeliver[] = [];

  const pick = (item: PendingDeliver): Session | undefined => {
    if (item.preferred && canReceive(bindings.get(item.preferred))) return item.preferred;
    for (const [session, binding] of bindings) {
      if (binding.systemId === item.systemId && canReceive(binding)) return session;
    }
    return undefined;
  };

  const retryLater = (item: PendingDeliver, reason: string) => {
    const delay = deps.retryDelaysMs[item.attempts - 1];
    if (delay === undefined) {
      deps.logger.warn('deliver_sm given up', { kind: item.kind, attempts: item.attempts, reason });
      return;
    }
    deps.scheduler.after(delay, () => dispatch(item));
  };

  const dispatch = (item: PendingDeliver): void => {
    const session = pick(item);
    if (!session) {
      waiting.push(item);
      return;
    }
    item.attempts += 1;
    const inFlight = unacknowledged.get(session) ?? new Set<PendingDeliver>();
    unacknowledged.set(session, inFlight);
    inFlight.add(item);
    const sent = session.deliver_sm({ ...item.options }, (resp: PDU) => {
      inFlight.delete(item);
      if (resp.command_status === 0) {
        deps.logger.debug('deliver_sm acknowledged', { kind: item.kind });
        return;
      }
      retryLater(item, `deliver_sm_resp status 0x${resp.command_status.toString(16)}`);
    });
    if (!sent) {
      inFlight.delete(item);
      retryLater(item, 'socket not writable');
    }
  };

  const flushFor = (systemId: string) => {
    const ready = waiting.filter((item) => item.systemId === systemId);
    for (const item of ready) waiting.splice(waiting.indexOf(item), 1);
    for (const item of ready) dispatch(item);
  };

  return {
    bind(session, binding) {
      bindings.set(session, binding);
      if (canReceive(binding)) flushFor(binding.systemId);
    },
    bindingOf(session) {
      return bindings.get(session);
    },
    drop(session) {
      bindings.delete(session);
      const orphans = unacknowledged.get(session);
      unacknowledged.delete(session);
      for (const item of orphans ?? []) {
        item.preferred = undefined;
        dispatch(item);
      }
    },
    deliver(systemId, preferred, options, kind) {
      dispatch({ systemId, preferred, options, kind, attempts: 0 });
    },
    receivingSessions() {
      return [...bindings].filter(([, binding]) => canReceive(binding)).map(([session]) => session);
    },
    pendingCount() {
      return waiting.length;
    },
    unacknowledgedCount() {
      let count = 0;
      for (const inFlight of unacknowledged.values()) count += inFlight.size;
      return count;
    },
  };
}
