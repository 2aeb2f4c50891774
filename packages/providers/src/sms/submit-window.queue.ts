import type { PDU } from 'smpp';
import type { ProviderError } from '../provider-error';
import { linkFailure } from './smpp-status.mapper';

export interface SubmitWindowDeps {
  /** Most submit_sm awaiting their submit_sm_resp at once; the rest wait in order. */
  windowSize: number;
  /** From the moment a submit is queued until its response; covers the wait for a window slot. */
  timeoutMs: number;
  /** Sends on the bound session; false when there is none. */
  transmit(pdu: PDU, onResponse: (response: PDU) => void): boolean;
  isBound(): boolean;
  /** Turns a submit_sm_resp into an error when its command_status is a refusal. */
  refusalOf(response: PDU): ProviderError | undefined;
}

/** Lets the parts of one message give up together: once one part failed, unsent siblings are not sent. */
export interface SubmitGroup {
  failure?: ProviderError;
}

interface Job {
  pdu: PDU;
  group: SubmitGroup;
  settled: boolean;
  timer: NodeJS.Timeout;
  resolve(response: PDU): void;
  reject(error: ProviderError): void;
}

export interface SubmitWindow {
  submit(pdu: PDU, group: SubmitGroup): Promise<PDU>;
  /** Sends queued submits while there is room; call after a (re)bind. */
  pump(): void;
  /** The connection dropped: submits awaiting a response are lost and fail; queued ones keep waiting for a rebind. */
  failInFlight(error: ProviderError): void;
  failAll(error: ProviderError): void;
}

export function createSubmitWindow(deps: SubmitWindowDeps): SubmitWindow {
  const waiting: Job[] = [];
  const inFlight = new Set<Job>();

  function settle(job: Job, outcome: { response: PDU } | { error: ProviderError }): void {
    if (job.settled) return;
    job.settled = true;
    clearTimeout(job.timer);
    inFlight.delete(job);
    const index = waiting.indexOf(job);
    if (index >= 0) waiting.splice(index, 1);
    if ('response' in outcome) {
      job.resolve(outcome.response);
      return;
    }
    job.reject(outcome.error);
    if (!job.group.failure) {
      job.group.failure = outcome.error;
      for (const sibling of waiting.filter((other) => other.group === job.group)) settle(sibling, outcome);
    }
  }

  function pump(): void {
    while (waiting.length > 0 && inFlight.size < deps.windowSize && deps.isBound()) {
      const job = waiting[0];
      if (job.group.failure) {
        settle(job, { error: job.group.failure });
        continue;
      }
      const sent = deps.transmit(job.pdu, (response) => {
        const refusal = deps.refusalOf(response);
        settle(job, refusal ? { error: refusal } : { response });
        pump();
      });
      if (!sent) return;
      waiting.shift();
      inFlight.add(job);
    }
  }

  function submit(pdu: PDU, group: SubmitGroup): Promise<PDU> {
    if (!deps.isBound()) return Promise.reject(linkFailure('not_bound', 'no SMPP bind to submit on'));
    return new Promise<PDU>((resolve, reject) => {
      const job: Job = { pdu, group, settled: false, resolve, reject, timer: undefined as unknown as NodeJS.Timeout };
      job.timer = setTimeout(() => {
        settle(job, { error: linkFailure('submit_timeout', `no submit_sm_resp within ${deps.timeoutMs} ms`) });
        pump();
      }, deps.timeoutMs);
      waiting.push(job);
      pump();
    });
  }

  function failInFlight(error: ProviderError): void {
    for (const job of [...inFlight]) settle(job, { error });
  }

  function failAll(error: ProviderError): void {
    failInFlight(error);
    for (const job of [...waiting]) settle(job, { error });
  }

  return { submit, pump, failInFlight, failAll };
}
