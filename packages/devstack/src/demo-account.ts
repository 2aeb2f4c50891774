import { createAccountKey } from './account-key';

/**
 * The number the demo account owns for every channel: the caller id of docs/voice.md#walk-through and the business
 * number of the Postman collection (docs/api.md#postman), so both run with the demo key as `npm start` prints it.
 */
export const DEMO_NUMBER = '+447911123499';

/** The `demo` account `npm start` creates, with a test key holding every scope; tests create the same one. */
export function createDemoAccount(databaseUrl: string, opts: { secretsKeys?: string } = {}) {
  return createAccountKey(databaseUrl, {
    account: 'demo',
    mode: 'test',
    scopes: ['*'],
    secretsKeys: opts.secretsKeys,
    numbers: [{ e164: DEMO_NUMBER, channels: ['chat', 'sms', 'rcs', 'voice'] }],
  });
}
