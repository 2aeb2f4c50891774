import { randomUUID } from 'node:crypto';
import type { AxiosResponse } from 'axios';
import type { Logger } from '@switchboard/logger';
import { ProviderError } from '../provider-error';
import type { OutboundMessage, RcsAdapter, SendAccepted } from '../provider.types';
import { silentLogger } from '../silent.logger';
import { createUpstreamHttp, isRecord, toNetworkFailure } from '../http/upstream-response';
import { isAlreadyExists, mapRcsFailure } from './rcs-error.mapper';

export interface RcsAdapterConfig {
  /** RBM API root without the version, e.g. `https://rcsbusinessmessaging.googleapis.com`. */
  baseUrl: string;
  accessToken: string;
  agentId: string;
  /** @defaultValue 10000 */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const E164 = /^\+[1-9]\d{5,14}$/;

/**
 * RBM addresses a phone as `phones/{+E164}`: the `+` stays literal in the path (it is a legal
 * path character), and validating first keeps anything else out of the URL.
 */
function phonePath(to: string): string {
  if (!E164.test(to)) throw new ProviderError('permanent', 'invalid_recipient', `not an E.164 number: ${to}`);
  return `/v1/phones/${to}`;
}

function failureOf(response: AxiosResponse) {
  return {
    status: response.status,
    body: response.data as unknown,
    retryAfter: response.headers['retry-after'] as unknown,
    message: `HTTP ${response.status}`,
  };
}

/**
 * The `messageId` is the last segment of the returned `name` and is what RBM events carry,
 * so it is the id receipts are matched on.
 */
function messageIdOf(data: unknown, fallback: string): string {
  const name = isRecord(data) && typeof data.name === 'string' ? data.name : '';
  const last = name.split('/').pop();
  return last ? last : fallback;
}

export function createRcsAdapter(deps: { config: RcsAdapterConfig; logger?: Logger }): RcsAdapter {
  const { config } = deps;
  const logger = deps.logger ?? silentLogger;
  const http = createUpstreamHttp(config.baseUrl, config.accessToken, config.timeoutMs ?? DEFAULT_TIMEOUT_MS);

  async function request(method: 'get' | 'post', url: string, params: Record<string, string>, body?: unknown): Promise<AxiosResponse> {
    try {
      return method === 'get' ? await http.get(url, { params }) : await http.post(url, body, { params });
    } catch (error) {
      throw mapRcsFailure(toNetworkFailure(error));
    }
  }

  async function isReachable(to: string): Promise<boolean> {
    const response = await request('get', `${phonePath(to)}/capabilities`, { requestId: randomUUID(), agentId: config.agentId });
    if (response.status >= 200 && response.status < 300) return true;
    if (response.status === 404) return false;
    throw mapRcsFailure(failureOf(response));
  }

  async function send(message: OutboundMessage): Promise<SendAccepted> {
    if (message.content.kind !== 'text') {
      // Rich chat payloads are rendered to text by the dispatcher before they reach RCS.
      throw new ProviderError('permanent', 'content_not_supported_on_channel', `rcs cannot carry chat content "${message.content.type}"`);
    }
    const body = { contentMessage: { text: message.content.text } };
    const response = await request('post', `${phonePath(message.to)}/agentMessages`, { messageId: message.clientRef, agentId: config.agentId }, body);
    if (response.status >= 200 && response.status < 300) {
      return { upstreamMessageId: messageIdOf(response.data, message.clientRef) };
    }
    if (isAlreadyExists(response.status, response.data)) {
      logger.info('rcs message already accepted upstream', { message_id: message.clientRef });
      return { upstreamMessageId: message.clientRef, alreadyAccepted: true };
    }
    const error = mapRcsFailure(failureOf(response));
    logger.warn('rcs send refused', { message_id: message.clientRef, kind: error.kind, upstream_code: error.upstreamCode });
    throw error;
  }

  return { isReachable, send };
}
