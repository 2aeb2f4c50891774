import { Account } from './resources/account';
import { Agents } from './resources/agents';
import { Calls } from './resources/calls';
import { Events } from './resources/events';
import { InboundMessages } from './resources/inbound';
import { Messages } from './resources/messages';
import { Suppressions } from './resources/suppressions';
import { Templates } from './resources/templates';
import { Webhooks } from './resources/webhooks';
import { Transport, type TransportOptions } from './transport';

export type SwitchboardOptions = TransportOptions;

/** The API, one property per resource: `new Switchboard({ baseUrl, apiKey }).messages.send(...)`. */
export class Switchboard {
  readonly messages: Messages;
  readonly templates: Templates;
  readonly inbound: InboundMessages;
  readonly webhooks: Webhooks;
  readonly events: Events;
  readonly suppressions: Suppressions;
  readonly account: Account;
  readonly calls: Calls;
  readonly agents: Agents;
  /** For routes this client has no method for yet: `client.transport.request('GET', '/v1/…')`. */
  readonly transport: Transport;

  constructor(options: SwitchboardOptions) {
    this.transport = new Transport(options);
    this.messages = new Messages(this.transport);
    this.templates = new Templates(this.transport);
    this.inbound = new InboundMessages(this.transport);
    this.webhooks = new Webhooks(this.transport);
    this.events = new Events(this.transport);
    this.suppressions = new Suppressions(this.transport);
    this.account = new Account(this.transport);
    this.calls = new Calls(this.transport);
    this.agents = new Agents(this.transport);
  }
}
