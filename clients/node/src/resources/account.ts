import type { Transport } from '../transport';
import type { AccountSettings, AccountSettingsRequest, Upstream } from '../types';

/** The account's sending defaults, callback secret and upstreams (docs/api.md). */
export class Account {
  constructor(private readonly transport: Transport) {}

  get(): Promise<AccountSettings> {
    return this.transport.request('GET', '/v1/account');
  }

  /** Changes only the fields given; `null` removes a setting. */
  update(settings: AccountSettingsRequest): Promise<AccountSettings> {
    return this.transport.request('PATCH', '/v1/account', { body: settings });
  }

  /** The `whsec_` secret that signs deliveries to a message's own `callback_url`. */
  async webhookSecret(): Promise<string> {
    const answer = await this.transport.request<{ secret: string }>('GET', '/v1/account/webhook-secret');
    return answer.secret;
  }

  /** Each upstream with its circuit breaker's state. */
  async upstreams(): Promise<Upstream[]> {
    const answer = await this.transport.request<{ data: Upstream[] }>('GET', '/v1/upstreams');
    return answer.data;
  }
}
