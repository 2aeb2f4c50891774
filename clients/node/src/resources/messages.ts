import { randomUUID } from 'node:crypto';
import { PageIterator } from '../pagination';
import type { Transport } from '../transport';
import type { ChatMessageRequest, Message, MessageAccepted, MessageRequest, MessageTransition, Page, PageQuery } from '../types';
import { route } from './path';

export interface SendOptions {
  /**
   * Makes the send idempotent across processes too. By default each call gets a fresh UUID that every retry of
   * that call reuses (docs/api.md#idempotency-key).
   */
  idempotencyKey?: string;
}

/** `text` is a shortcut for `content: { text }`, which every channel accepts. */
export type SendMessageRequest = MessageRequest & { text?: string };

export interface MessageListQuery extends PageQuery {
  status?: Message['status'];
  channel?: Message['channel'];
  recipient?: string;
  /** The lane: `transactional` or `bulk` (docs/messages.md#traffic-lanes). */
  traffic_class?: Message['traffic_class'];
}

/** Sending and reading messages (docs/api.md, docs/chat.md). */
export class Messages {
  constructor(private readonly transport: Transport) {}

  /** `POST /v1/messages` on `sms`, `rcs`, `chat` or `auto`; answers once the message is queued. */
  send(request: SendMessageRequest, options: SendOptions = {}): Promise<MessageAccepted> {
    const { text, ...body } = request;
    const payload = text === undefined ? body : { ...body, content: { text } };
    return this.transport.request('POST', '/v1/messages', { body: payload, headers: idempotency(options) });
  }

  /** `POST /v1/messages/chat` with a typed chat message: `{ to, type: 'text', text: { body } }` (docs/chat.md). */
  sendChat(request: ChatMessageRequest, options: SendOptions = {}): Promise<MessageAccepted> {
    return this.transport.request('POST', '/v1/messages/chat', { body: request, headers: idempotency(options) });
  }

  get(id: string): Promise<Message> {
    return this.transport.request('GET', route`/v1/messages/${id}`);
  }

  /** The message's status history, oldest first. */
  async events(id: string): Promise<MessageTransition[]> {
    const page = await this.transport.request<{ data: MessageTransition[] }>('GET', route`/v1/messages/${id}/events`);
    return page.data;
  }

  /** One page, newest first. */
  listPage(query: MessageListQuery = {}): Promise<Page<Message>> {
    return this.transport.request('GET', '/v1/messages', { query: { ...query } });
  }

  /** Every matching message, newest first, across all pages. */
  list(query: Omit<MessageListQuery, 'cursor'> = {}): PageIterator<Message> {
    return new PageIterator((cursor) => this.listPage({ ...query, cursor }));
  }
}

// One key per logical send, made here once, so that the transport's retries replay the send instead of repeating it.
function idempotency(options: SendOptions): Record<string, string> {
  return { 'Idempotency-Key': options.idempotencyKey ?? randomUUID() };
}
