import { PageIterator } from '../pagination';
import type { Transport } from '../transport';
import { verify, type VerifyOptions, type WebhookHeaders } from '../webhook-signature';
import type {
  Page,
  PageQuery,
  WebhookAttempt,
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookEndpointRequest,
  WebhookEvent,
  WebhookSecretRotation,
} from '../types';
import { route } from './path';

/** Webhook endpoints and their deliveries (docs/webhooks.md#managing-endpoints); `verify` checks a delivery. */
export class Webhooks {
  constructor(private readonly transport: Transport) {}

  /** The answer is the only time the endpoint's `whsec_` secret is shown: store it. */
  create(endpoint: WebhookEndpointRequest): Promise<WebhookEndpointCreated> {
    return this.transport.request('POST', '/v1/webhooks', { body: endpoint });
  }

  get(id: string): Promise<WebhookEndpoint> {
    return this.transport.request('GET', route`/v1/webhooks/${id}`);
  }

  listPage(query: PageQuery = {}): Promise<Page<WebhookEndpoint>> {
    return this.transport.request('GET', '/v1/webhooks', { query: { ...query } });
  }

  list(query: Omit<PageQuery, 'cursor'> = {}): PageIterator<WebhookEndpoint> {
    return new PageIterator((cursor) => this.listPage({ ...query, cursor }));
  }

  async delete(id: string): Promise<void> {
    await this.transport.request('DELETE', route`/v1/webhooks/${id}`);
  }

  /** A new secret; deliveries are signed with the old one too until `previous_secret_expires_at`. */
  rotateSecret(id: string): Promise<WebhookSecretRotation> {
    return this.transport.request('POST', route`/v1/webhooks/${id}/rotate-secret`);
  }

  deliveriesPage(id: string, query: PageQuery = {}): Promise<Page<WebhookAttempt>> {
    return this.transport.request('GET', route`/v1/webhooks/${id}/deliveries`, { query: { ...query } });
  }

  /** Every delivery attempt to the endpoint, newest first. */
  deliveries(id: string, query: Omit<PageQuery, 'cursor'> = {}): PageIterator<WebhookAttempt> {
    return new PageIterator((cursor) => this.deliveriesPage(id, { ...query, cursor }));
  }

  /** Checks a delivery's Standard Webhooks signature and timestamp and returns its event; throws WebhookVerificationError. */
  verify(payload: string | Uint8Array, headers: WebhookHeaders, secret: string, options?: VerifyOptions): WebhookEvent {
    return verify(payload, headers, secret, options);
  }
}
