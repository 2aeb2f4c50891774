import { isDeepStrictEqual } from 'node:util';
import type { KeyMode } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';
import { createChatAdapter, createRcsAdapter, createSmsAdapter, type ChatAdapter, type RcsAdapter, type SmsAdapter } from '@switchboard/providers';
import type { UpstreamSet } from '../config';

export interface ChannelAdapters {
  chat: ChatAdapter;
  rcs: RcsAdapter;
  sms: SmsAdapter;
}

export type AdaptersByMode = Readonly<Record<KeyMode, ChannelAdapters>>;

export interface AdapterSets {
  byMode: AdaptersByMode;
  /** Every distinct SMPP session: one when live and sandbox name the same SMSC. */
  smsSessions: SmsAdapter[];
}

/**
 * Test keys always use the sandbox set, live keys the live one (docs/authentication.md#test-and-live-keys). Where a live setting
 * equals its sandbox counterpart (the default) the adapter is shared: in particular the SMSC gets
 * one bind, since a second bind with the same system_id would split its receipts between two sessions.
 */
export function createAdapterSets(deps: { sandbox: UpstreamSet; live: UpstreamSet; logger: Logger }): AdapterSets {
  const { sandbox, live, logger } = deps;
  const sandboxSet: ChannelAdapters = {
    chat: createChatAdapter({ config: sandbox.chat, logger }),
    rcs: createRcsAdapter({ config: sandbox.rcs, logger }),
    sms: createSmsAdapter({ config: sandbox.smpp, logger }),
  };
  const liveSet: ChannelAdapters = {
    chat: isDeepStrictEqual(live.chat, sandbox.chat) ? sandboxSet.chat : createChatAdapter({ config: live.chat, logger }),
    rcs: isDeepStrictEqual(live.rcs, sandbox.rcs) ? sandboxSet.rcs : createRcsAdapter({ config: live.rcs, logger }),
    sms: isDeepStrictEqual(live.smpp, sandbox.smpp) ? sandboxSet.sms : createSmsAdapter({ config: live.smpp, logger }),
  };
  return {
    byMode: { test: sandboxSet, live: liveSet },
    smsSessions: [...new Set([sandboxSet.sms, liveSet.sms])],
  };
}
