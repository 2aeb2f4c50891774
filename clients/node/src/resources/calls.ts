import { randomUUID } from 'node:crypto';
import { PageIterator } from '../pagination';
import type { Transport } from '../transport';
import type { Call, CallCreated, CallRequest, Page, PageQuery } from '../types';
import type { SendOptions } from './messages';
import { route } from './path';

export interface CallListQuery extends PageQuery {
  status?: Call['status'];
  to?: string;
  agent_id?: string;
}

/** Outbound calls, optionally run by an agent (docs/voice.md#calls). */
export class Calls {
  constructor(private readonly transport: Transport) {}

  /**
   * `POST /v1/voice/calls`; answers once the call is ringing. Like `messages.send`, each call gets one
   * Idempotency-Key that every retry reuses, so a retried create never rings the phone twice.
   */
  create(request: CallRequest, options: SendOptions = {}): Promise<CallCreated> {
    return this.transport.request('POST', '/v1/voice/calls', { body: request, headers: { 'Idempotency-Key': options.idempotencyKey ?? randomUUID() } });
  }

  /** The call with its transcript (`transcript`) and, once stored, its recording's link (`recording`). */
  get(id: string): Promise<Call> {
    return this.transport.request('GET', route`/v1/voice/calls/${id}`);
  }

  /** The call's transcript, oldest line first. */
  async transcript(id: string): Promise<Call['transcript']> {
    return (await this.get(id)).transcript;
  }

  listPage(query: CallListQuery = {}): Promise<Page<Call>> {
    return this.transport.request('GET', '/v1/voice/calls', { query: { ...query } });
  }

  list(query: Omit<CallListQuery, 'cursor'> = {}): PageIterator<Call> {
    return new PageIterator((cursor) => this.listPage({ ...query, cursor }));
  }

  /** Ends the call: a ringing call becomes `canceled`, an answered one `completed` (docs/voice.md#hangup). */
  hangup(id: string): Promise<Call> {
    return this.transport.request('POST', route`/v1/voice/calls/${id}/hangup`);
  }

  /** The recording as WAV bytes: stereo, 8 kHz 16-bit PCM, callee left, agent right (docs/voice.md#recording). */
  recording(id: string): Promise<Uint8Array> {
    return this.transport.requestBytes('GET', route`/v1/voice/calls/${id}/recording`);
  }
}
