import type { components } from './generated/openapi';

type Schemas = components['schemas'];

/**
 * A component schema of the API document, by name. A name the document no longer has becomes a loose record, so a
 * regenerated document that renames a schema loosens one type instead of breaking the build (clients/README.md).
 */
export type Schema<Name extends string> = Name extends keyof Schemas ? Schemas[Name] : Record<string, unknown>;

export type Channel = 'chat' | 'rcs' | 'sms';
export type MessageRequest = Schema<'MessageRequest'>;
export type ChatMessageRequest = Schema<'ChatMessageRequest'>;
export type MessageAccepted = Schema<'MessageAccepted'>;
export type Message = Schema<'Message'>;
export type MessageTransition = Schema<'MessageTransition'>;
export type Template = Schema<'Template'>;
export type TemplateCreateRequest = Schema<'TemplateCreateRequest'>;
export type Inbound = Schema<'Inbound'>;
export type WebhookEndpointRequest = Schema<'WebhookEndpointRequest'>;
export type WebhookEndpoint = Schema<'WebhookEndpoint'>;
export type WebhookEndpointCreated = Schema<'WebhookEndpointCreated'>;
export type WebhookSecretRotation = Schema<'WebhookSecretRotation'>;
export type WebhookAttempt = Schema<'WebhookAttempt'>;
export type EventRedelivery = Schema<'EventRedelivery'>;
export type Suppression = Schema<'Suppression'>;
export type SuppressionRequest = Schema<'SuppressionRequest'>;
export type AccountSettings = Schema<'AccountSettings'>;
export type AccountSettingsRequest = Schema<'AccountSettingsRequest'>;
export type Upstream = Schema<'Upstream'>;
// openapi-typescript makes a field with a `default` required; in a request such a field may be left out.
export type CallRequest = Omit<Schema<'CallRequest'>, 'record'> & { record?: boolean };
export type CallCreated = Schema<'CallCreated'>;
export type Call = Schema<'Call'>;
/** One node of a flow; its fields depend on `type` (docs/voice-agents.md#node-types). */
export interface AgentNode {
  type: string;
  [field: string]: unknown;
}
/** The graph an agent runs. Typed here because the document describes each node only in prose (an open schema). */
export interface AgentFlow {
  start: string;
  nodes: Record<string, AgentNode>;
}
export type AgentRequest = Omit<Schema<'AgentRequest'>, 'flow'> & { flow: AgentFlow };
export type Agent = Omit<Schema<'Agent'>, 'flow'> & { flow: AgentFlow };

/** `data` is the resource as `GET` returns it plus `sequence` (docs/webhooks.md#envelope-and-headers). */
export interface EventData {
  id: string;
  sequence?: number;
  [field: string]: unknown;
}

/** An event as `GET /v1/events` lists it; `data` is typed loosely because it is a message, an inbound or a call. */
export type Event = Omit<Schema<'Event'>, 'data'> & { data: EventData };
export type EventDetail = Omit<Schema<'EventDetail'>, 'data'> & { data: EventData };

/** The JSON body of a webhook delivery, as `webhooks.verify` returns it. */
export interface WebhookEvent {
  id: string;
  type: string;
  created_at: string;
  data: EventData;
}

/** One page of a cursor-paginated list (docs/api.md). */
export interface Page<T> {
  data: T[];
  /** Pass as `cursor` for the next page; null on the last one. */
  next_cursor: string | null;
}

/** Filters and paging common to every list: `limit` 1–100, `cursor` from the previous page. */
export interface PageQuery {
  limit?: number;
  cursor?: string;
}
