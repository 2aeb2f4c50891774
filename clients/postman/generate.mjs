#!/usr/bin/env node
// Generates clients/postman/switchboard.postman_collection.json from the OpenAPI document (docs/api.md#postman):
// openapi-to-postmanv2 converts it, then the steps below (never hand edits) make it runnable end to end by
// newman against a sandbox stack. `--check` compares instead of writing and exits 1 when the file is stale.
// Needs the workspaces built (`npx tsc -b tsconfig.build.json`).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const OUTPUT = join(here, 'switchboard.postman_collection.json');
const converter = require('openapi-to-postmanv2');
const { buildOpenApiDocument } = require('../../packages/schemas/dist/index.js');
// The number the demo account of `npm start` owns: the collection's default business number.
const { DEMO_NUMBER } = require('../../packages/devstack/dist/demo-account.js');
/** The business number of the document's examples, which the collection replaces with {{businessNumber}}. */
const EXAMPLE_BUSINESS_NUMBER = '+14155550199';

/** The order requests run in: each folder's creates come before the reads that use their ids; deletes run last. */
const FOLDER_ORDER = ['Operations', 'Provider callbacks', 'Account', 'Webhooks', 'Messages', 'Chat', 'Voice', 'Suppressions', 'Events', 'Upstreams'];

/** Which saved id fills `:id` in a path, by its first segments. */
const ID_VARIABLES = [
  ['/v1/messages/', 'messageId'],
  ['/v1/templates/', 'templateId'],
  ['/v1/suppressions/', 'suppressionId'],
  ['/v1/webhooks/', 'webhookId'],
  ['/v1/events/', 'eventId'],
  ['/v1/inbound/', 'inboundId'],
  ['/v1/batches/', 'batchId'],
  ['/v1/voice/calls/', 'callId'],
  ['/v1/voice/agents/', 'agentId'],
];

/**
 * Operations whose `:id` is not the one their path prefix names: canceling needs a message that is still scheduled,
 * and hanging up needs a call that has not ended (an ended call answers 409), so each places its own.
 */
const ID_BY_OPERATION = { cancelMessage: 'scheduledMessageId', hangupCall: 'liveCallId' };

/** Creates whose answer holds an id later requests use: operationId → variable. */
const SAVES_ID = {
  sendMessage: 'messageId',
  createTemplate: 'templateId',
  createSuppression: 'suppressionId',
  createWebhookEndpoint: 'webhookId',
  createAgent: 'agentId',
};
/** Creates whose id is in another field than `id`: operationId → [variable, field]. */
const SAVES_FIELD = { sendBatch: ['batchId', 'batch_id'], createCall: ['callId', 'call_id'] };

/**
 * Lists whose first item is saved, waiting (up to ~30 s) until work the stack does in the background has
 * produced one: the dispatcher stores inbound replies and events a moment after the request that caused them.
 */
const WAITS_FOR_FIRST = { listInbound: 'inboundId', listEvents: 'eventId' };

/**
 * Requests retried on these statuses like the lists above: the chat send may meet the customer window still
 * closing; a call's recording is 404 until the call has ended and the orchestrator has stored it.
 */
const RETRIES_ON_STATUS = { sendChatMessage: [422], getCallRecording: [404] };
/** Retries above the default 60 (~30 s): a call rings, plays its agent's prompts and hangs up before its recording exists. */
const MAX_TRIES = { getCallRecording: 180 };

/** Body fields the collection fills from saved variables: the document's example cannot know the agent's id. */
const BODY_VALUES = { createCall: { agent_id: '{{agentId}}' } };

const PUBLIC_VARIABLES = [
  ['baseUrl', 'http://127.0.0.1:8080', 'The gateway; `npm start` prints it.'],
  ['apiKey', 'sk_test_replace_me', 'A test key with scope `*` whose account owns businessNumber: the demo key `npm start` prints (docs/api.md#postman).'],
  [
    'businessNumber',
    DEMO_NUMBER,
    'A number the account owns for chat and voice: the caller id and the chat business number. The default is the demo account’s.',
  ],
  ['chatAppSecret', 'sandbox-chat-app-secret', 'CHAT_APP_SECRET of the gateway: signs the chat callback.'],
  ['chatVerifyToken', 'sandbox-verify-token', 'CHAT_VERIFY_TOKEN of the gateway.'],
  ['rbmClientToken', 'sandbox-rbm-client-token', 'RBM_CLIENT_TOKEN of the gateway: signs the RCS callback.'],
];

const script = (lines) => ({ type: 'text/javascript', exec: lines });

const expect2xx = ["pm.test('answers 2xx', function () { pm.expect(pm.response.code).to.be.within(200, 299); });"];

function retryScript(condition, name) {
  return [
    `var tries = Number(pm.collectionVariables.get('tries:${name}') || 0);`,
    `if (!(${condition}) && tries < ${MAX_TRIES[name] ?? 60}) {`,
    `  pm.collectionVariables.set('tries:${name}', tries + 1);`,
    '  postman.setNextRequest(pm.info.requestName);',
    '  setTimeout(function () {}, 500);',
    '  return;',
    '}',
    `pm.collectionVariables.unset('tries:${name}');`,
  ];
}

function testsFor(operationId) {
  const lines = [];
  if (WAITS_FOR_FIRST[operationId]) {
    lines.push('(function () {', ...retryScript('pm.response.code === 200 && pm.response.json().data.length > 0', operationId));
    lines.push(
      ...expect2xx,
      // Still nothing after every retry: an assertion that says so, not a script error on data[0].
      'var first = pm.response.code === 200 ? pm.response.json().data[0] : undefined;',
      "pm.test('has a first item', function () { pm.expect(first, 'nothing arrived: does the account own businessNumber?').to.be.an('object'); });",
      `if (first) pm.collectionVariables.set('${WAITS_FOR_FIRST[operationId]}', first.id);`,
      '})();',
    );
    return lines;
  }
  if (RETRIES_ON_STATUS[operationId]) {
    lines.push(
      '(function () {',
      ...retryScript(`[${RETRIES_ON_STATUS[operationId].join(', ')}].indexOf(pm.response.code) < 0`, operationId),
      ...expect2xx,
      '})();',
    );
    return lines;
  }
  lines.push(...expect2xx);
  if (SAVES_ID[operationId]) lines.push(`pm.collectionVariables.set('${SAVES_ID[operationId]}', pm.response.json().id);`);
  if (SAVES_FIELD[operationId]) lines.push(`pm.collectionVariables.set('${SAVES_FIELD[operationId][0]}', pm.response.json().${SAVES_FIELD[operationId][1]});`);
  return lines;
}

/** Pre-request scripts that sign the provider callbacks the way each upstream does (docs/api.md#upstream-callbacks). */
const PRE_REQUEST = {
  chatWebhook: [
    '// The Cloud API signs the raw body: X-Hub-Signature-256 = sha256=<hex HMAC-SHA256(CHAT_APP_SECRET, body)>.',
    '// The message is dated now, so the customer window it opens is open when the chat send runs.',
    '// It is addressed to businessNumber, so the reply lands in the account that owns it.',
    'var body = JSON.parse(pm.request.body.raw);',
    "var businessDigits = pm.variables.get('businessNumber').replace(/^\\+/, '');",
    'body.entry[0].changes[0].value.metadata = { display_phone_number: businessDigits, phone_number_id: businessDigits };',
    'body.entry[0].changes[0].value.messages[0].timestamp = String(Math.floor(Date.now() / 1000));',
    "body.entry[0].changes[0].value.messages[0].id = 'wamid.' + pm.variables.replaceIn('{{$guid}}');",
    'var raw = JSON.stringify(body);',
    'pm.request.body.raw = raw;',
    "pm.collectionVariables.set('chatSignature', 'sha256=' + CryptoJS.HmacSHA256(raw, pm.variables.get('chatAppSecret')).toString(CryptoJS.enc.Hex));",
  ],
  cancelMessage: [
    '// Only a scheduled message can be canceled: schedule one an hour ahead, then cancel it. Its recipient is not',
    '// the one the Suppressions folder opts out.',
    'pm.sendRequest({',
    "  url: pm.variables.get('baseUrl') + '/v1/messages',",
    "  method: 'POST',",
    "  header: [{ key: 'Content-Type', value: 'application/json' }, { key: 'Authorization', value: 'Bearer ' + pm.variables.get('apiKey') }],",
    "  body: { mode: 'raw', raw: JSON.stringify({ recipient: '+14155552673', channel: 'sms', content: { text: 'Reminder' }, send_at: new Date(Date.now() + 3600000).toISOString() }) },",
    '}, function (error, response) {',
    '  if (error) throw error;',
    "  pm.collectionVariables.set('scheduledMessageId', response.json().id);",
    '});',
  ],
  hangupCall: [
    '// Only a call that has not ended can be hung up: place one to the sandbox phone that rings until CANCEL',
    '// (number ending in 02, docs/voice.md#carrier-simulator), then hang it up.',
    'pm.sendRequest({',
    "  url: pm.variables.get('baseUrl') + '/v1/voice/calls',",
    "  method: 'POST',",
    "  header: [{ key: 'Content-Type', value: 'application/json' }, { key: 'Authorization', value: 'Bearer ' + pm.variables.get('apiKey') }],",
    "  body: { mode: 'raw', raw: JSON.stringify({ to: '+14155552602', from: pm.variables.get('businessNumber') }) },",
    '}, function (error, response) {',
    '  if (error) throw error;',
    "  pm.collectionVariables.set('liveCallId', response.json().call_id);",
    '});',
  ],
  rcsEvents: [
    '// RBM signs message.data: X-Goog-Signature = base64 HMAC-SHA512(RBM_CLIENT_TOKEN, message.data).',
    'var data = JSON.parse(pm.request.body.raw).message.data;',
    "pm.collectionVariables.set('rcsSignature', CryptoJS.HmacSHA512(data, pm.variables.get('rbmClientToken')).toString(CryptoJS.enc.Base64));",
  ],
};

const HEADER_VALUES = { 'Idempotency-Key': '{{$guid}}', 'X-Hub-Signature-256': '{{chatSignature}}', 'X-Goog-Signature': '{{rcsSignature}}' };
const QUERY_VALUES = { 'hub.verify_token': '{{chatVerifyToken}}' };

function operationsBySummary(document) {
  const bySummary = new Map();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (bySummary.has(operation.summary)) throw new Error(`two operations share the summary "${operation.summary}"`);
      bySummary.set(operation.summary, { method: method.toUpperCase(), path, operation });
    }
  }
  return bySummary;
}

function finishRequest(item, found) {
  const { path, operation } = found;
  const request = item.request;
  const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
  request.auth = isPublic ? { type: 'noauth' } : undefined;
  if (!request.auth) delete request.auth;
  for (const header of request.header ?? []) if (HEADER_VALUES[header.key]) header.value = HEADER_VALUES[header.key];
  for (const query of request.url.query ?? []) {
    const parameter = (operation.parameters ?? []).find((p) => p.name === query.key);
    if (parameter?.example !== undefined) query.value = String(parameter.example);
    if (QUERY_VALUES[query.key]) query.value = QUERY_VALUES[query.key];
    // Optional filters stay in the collection to try, switched off: the run reads unfiltered pages. Their
    // values come from the document, not from the converter's random faker, so generating twice gives one file.
    if (!parameter?.required) {
      query.disabled = true;
      const schema = parameter?.schema ?? {};
      query.value = String(parameter?.example ?? schema.examples?.[0] ?? schema.enum?.[0] ?? schema.default ?? '');
    }
  }
  for (const variable of request.url.variable ?? []) {
    const chained = ID_BY_OPERATION[operation.operationId] ?? ID_VARIABLES.find(([prefix]) => path.startsWith(prefix))?.[1];
    if (variable.key === 'id' && chained) variable.value = `{{${chained}}}`;
  }
  if (request.body?.raw && operation.operationId !== 'chatWebhook')
    request.body.raw = request.body.raw.replaceAll(EXAMPLE_BUSINESS_NUMBER, '{{businessNumber}}');
  if (BODY_VALUES[operation.operationId]) {
    request.body.raw = JSON.stringify({ ...JSON.parse(request.body.raw), ...BODY_VALUES[operation.operationId] }, null, 2);
  }
  const events = [{ listen: 'test', script: script(testsFor(operation.operationId)) }];
  if (PRE_REQUEST[operation.operationId]) events.unshift({ listen: 'prerequest', script: script(PRE_REQUEST[operation.operationId]) });
  // Saved answers differ per run; the collection keeps only what the document says.
  return { name: item.name, request, response: [], event: events };
}

/** Within a folder: writes that later reads depend on first, then reads, then requests that need what
 * the reads saved or the time they give the stack (a call's recording exists only once the call has ended). */
const RUN_LAST = new Set(['sendChatMessage', 'redeliverEvent', 'getCallRecording']);
/** Creates that use the id another create saved (a call runs the agent created before it). */
const CREATES_AFTER_CREATES = new Set(['createCall']);
function runWeight({ operationId, method }) {
  if (RUN_LAST.has(operationId)) return 2;
  if (CREATES_AFTER_CREATES.has(operationId)) return 0.5;
  return SAVES_ID[operationId] || SAVES_FIELD[operationId] || method === 'PATCH' ? 0 : 1;
}

export async function generateCollection() {
  const document = buildOpenApiDocument({ serverUrl: 'http://127.0.0.1:8080' });
  const converted = await promisify(converter.convert)(
    { type: 'json', data: document },
    {
      folderStrategy: 'Tags',
      parametersResolution: 'Example',
      requestParametersResolution: 'Example',
      exampleParametersResolution: 'Example',
      requestNameSource: 'Fallback',
      includeWebhooks: false,
      alwaysInheritAuthentication: true,
    },
  );
  if (!converted.result) throw new Error(`openapi-to-postmanv2: ${converted.reason}`);
  const raw = converted.output[0].data;
  const operations = operationsBySummary(document);
  const folders = raw.item.filter((folder) => (folder.item ?? []).length > 0);
  const unknown = folders.map((f) => f.name).filter((name) => !FOLDER_ORDER.includes(name));
  if (unknown.length > 0) throw new Error(`place these folders in FOLDER_ORDER: ${unknown.join(', ')}`);
  const deletes = [];
  const ordered = FOLDER_ORDER.map((name) => folders.find((f) => f.name === name))
    .filter(Boolean)
    .map((folder) => {
      const items = folder.item.map((item) => {
        const found = operations.get(item.name);
        if (!found) throw new Error(`no operation is named "${item.name}"`);
        return { item: finishRequest(item, found), method: found.method, operationId: found.operation.operationId };
      });
      deletes.push(...items.filter((i) => i.method === 'DELETE').map((i) => i.item));
      const kept = items.filter((i) => i.method !== 'DELETE').map((i, index) => ({ ...i, index, weight: runWeight(i) }));
      kept.sort((a, b) => a.weight - b.weight || a.index - b.index);
      return { name: folder.name, description: folder.description, item: kept.map((i) => i.item) };
    });
  return {
    info: {
      name: 'Switchboard API',
      description:
        'Generated from the OpenAPI document by clients/postman/generate.mjs; do not edit by hand. Set baseUrl and apiKey to what `npm start` prints, then run the collection in order.',
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{apiKey}}', type: 'string' }] },
    variable: [
      ...PUBLIC_VARIABLES.map(([key, value, description]) => ({ key, value, type: 'string', description })),
      ...[
        'messageId',
        'batchId',
        'scheduledMessageId',
        'templateId',
        'suppressionId',
        'webhookId',
        'eventId',
        'inboundId',
        'agentId',
        'callId',
        'liveCallId',
        'chatSignature',
        'rcsSignature',
      ].map((key) => ({ key, value: '', type: 'string' })),
    ],
    item: [...ordered, { name: 'Clean up', description: 'The deletes, after every request that reads what they remove.', item: deletes }],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = `${JSON.stringify(await generateCollection(), null, 2)}\n`;
  if (process.argv.includes('--check')) {
    const current = readFileSync(OUTPUT, 'utf8');
    if (current !== text) {
      process.stderr.write('clients/postman/switchboard.postman_collection.json is stale: run node clients/postman/generate.mjs\n');
      process.exit(1);
    }
  } else {
    writeFileSync(OUTPUT, text);
    process.stdout.write(`wrote ${OUTPUT}\n`);
  }
}
