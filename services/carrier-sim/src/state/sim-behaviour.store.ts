/**
 * How the simulated upstreams behave, changed at run time through `PUT /sim/behaviour`
 * (docs/sandbox.md#behaviour-at-run-time). Handlers read it at each send, so a change applies to the next one.
 */
export interface SimBehaviour {
  /** After a send, when the delivered report goes out; the read report comes as long again after that. */
  receiptDelayMs: number;
  /** Refuse free-form chat outside the 24-hour window, as the Cloud API does. */
  enforceChatWindow: boolean;
  /**
   * Reports owed and not yet taken (webhooks waiting for a connection, unanswered deliver_sm) past which new sends are
   * answered only once the backlog is under it again (docs/sandbox.md#receipts-under-load).
   */
  receiptBacklogMax: number;
}

/** 200 ms: reports come soon enough for a test, late enough that a send is answered before its receipt, as upstreams do. */
export const DEFAULT_SIM_BEHAVIOUR: Readonly<SimBehaviour> = Object.freeze({ receiptDelayMs: 200, enforceChatWindow: true, receiptBacklogMax: 1_000 });

/** The limits PUT /sim/behaviour checks each field against. */
export const SIM_BEHAVIOUR_LIMITS = { receiptDelayMs: { min: 0, max: 3_600_000 }, receiptBacklogMax: { min: 2, max: 10_000_000 } } as const;

export interface SimBehaviourStore {
  /** The behaviour now: a live object, read at each use. */
  readonly current: Readonly<SimBehaviour>;
  update(changes: Partial<SimBehaviour>): Readonly<SimBehaviour>;
}

export function createSimBehaviourStore(initial: SimBehaviour = DEFAULT_SIM_BEHAVIOUR): SimBehaviourStore {
  const current: SimBehaviour = { ...initial };
  return {
    current,
    update(changes) {
      Object.assign(current, changes);
      return current;
    },
  };
}
