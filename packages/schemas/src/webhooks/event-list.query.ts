import { EVENT_TYPES } from '@switchboard/webhooks';
import { EVENT_RESOURCE_ID_PATTERN, type JsonSchema } from '../json-schema';

/** The filters of `GET /v1/events` beside `limit` and `cursor`; other parameters are ignored. */
export const eventListQuerySchema: JsonSchema = {
  type: 'object',
  properties: {
    type: { type: 'string', enum: [...EVENT_TYPES], description: 'Only events of this type.' },
    resource_id: { type: 'string', pattern: EVENT_RESOURCE_ID_PATTERN, description: 'Only events about this message, call or inbound reply.' },
  },
};

export interface EventListQuery {
  type?: string;
  resource_id?: string;
}
