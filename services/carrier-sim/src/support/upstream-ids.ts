import { randomBytes, randomInt, randomUUID } from 'node:crypto';

/** Cloud API message ids are `wamid.` followed by base64 of an opaque protobuf. */
export function newWamid(): string {
  return `wamid.${randomBytes(27).toString('base64')}`;
}

/** Graph object ids are decimal strings; 15 digits stays inside Number.MAX_SAFE_INTEGER. */
export function newGraphId(): string {
  return `${randomInt(1, 10)}${String(randomInt(0, 1e7)).padStart(7, '0')}${String(randomInt(0, 1e7)).padStart(7, '0')}`;
}

export function newSmscMessageId(): string {
  return randomBytes(8).toString('hex');
}

/** Pub/Sub message ids are decimal strings. */
export function newPubSubMessageId(): string {
  return `${randomInt(1, 10)}${String(randomInt(0, 1e8)).padStart(8, '0')}${String(randomInt(0, 1e7)).padStart(7, '0')}`;
}

export function newRbmEventId(): string {
  return `MxS${randomBytes(12).toString('base64url')}`;
}

export function newRbmUserMessageId(): string {
  return `MsS${randomBytes(12).toString('base64url')}`;
}

export function newTraceId(): string {
  return randomBytes(12).toString('base64url');
}

export { randomUUID };
