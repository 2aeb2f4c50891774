import type { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { SendLanes } from '@switchboard/queues';
import { buildOpenApiDocument } from '@switchboard/schemas';
import { getLogger } from '@switchboard/logger';
import { MetricsRegistry } from '@switchboard/runtime';
import { SecretKeyring, type Db } from '@switchboard/store';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { registeredRoutes } from '../src/docs/registered-routes';

/**
 * Surfaces that are not part of the API and so not in the document (docs/api.md#the-openapi-document):
 * the rendered reference itself, the web console and the admin pages (Bull Board).
 */
const NOT_API = [/^\/docs(\/|$)/, /^\/console(\/|$)/, /^\/admin\//];

describe('the OpenAPI document and the routes the gateway serves', () => {
  const redis = new Redis({ lazyConnect: true });
  afterAll(() => redis.disconnect());

  it('name exactly the same methods and paths, in both directions', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://unused/unused',
      REDIS_URL: 'redis://unused:6379',
      SECRETS_ENCRYPTION_KEYS: SecretKeyring.generateText('test1'),
      LOG_LEVEL: 'error',
    });
    // Bull Board accepts a queue whose metadata names BullMQ; nothing here ever reads a job.
    const queue = { name: 'unused', metaValues: { version: 'bullmq:unused' }, on: () => undefined } as unknown as Queue;
    // Building the app connects nothing: the router is all this test reads.
    const app = createApp({
      config,
      logger: getLogger({ service: 'openapi-routes-test', level: 'error' }),
      db: {} as Db,
      redis,
      sendLanes: {
        of: () => queue,
        all: [queue, { ...queue, name: 'unused-bulk' } as unknown as Queue],
        getJob: async () => undefined,
        remove: async () => 0,
        close: async () => undefined,
      } as unknown as SendLanes,
      callbackQueue: queue,
      templateQueue: queue,
      eventFanoutQueue: queue,
      metrics: new MetricsRegistry(),
    });
    const served = [
      ...new Set(
        registeredRoutes(app)
          .filter((r) => !NOT_API.some((p) => p.test(r.path)))
          .map((r) => `${r.method} ${r.path}`),
      ),
    ].sort();
    // The walk itself must see the routers: an empty list would make the comparison vacuous.
    expect(served).toEqual(expect.arrayContaining(['POST /v1/messages', 'GET /v1/events/{id}', 'GET /healthz']));
    const document = buildOpenApiDocument() as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(document.paths)
      .filter(([path]) => !NOT_API.some((p) => p.test(path)))
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect({ servedButNotDocumented: served.filter((r) => !documented.includes(r)) }).toEqual({ servedButNotDocumented: [] });
    expect({ documentedButNotServed: documented.filter((r) => !served.includes(r)) }).toEqual({ documentedButNotServed: [] });
  });
});
