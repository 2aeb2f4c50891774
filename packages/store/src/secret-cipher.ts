import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Encryption at rest of the webhook signing secrets (docs/webhooks.md, "Secrets at rest").
 *
 * Stored form: `v1.<kid>.<iv>.<ciphertext+tag>`, iv and ciphertext in base64url, AES-256-GCM with a
 * 12-byte iv and a 16-byte tag. The additional authenticated data names the table, column and row id,
 * so a value copied into another row or column no longer opens.
 */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const KID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

/** The format of `SECRETS_ENCRYPTION_KEYS`, for start-up errors. */
export const SECRETS_KEYS_FORMAT = '"<kid>:<base64 of 32 random bytes>[,<older kid>:<key>]", active key first; see docs/configuration.md';

/** The file under the local state directory (`.switchboard/`) where `npm start` keeps its key, read by the CLI. */
export const LOCAL_SECRETS_KEYS_FILE = 'secrets-encryption-keys';

/** Where a sealed value lives; it is bound to exactly this place. */
export interface SecretLocation {
  table: string;
  column: string;
  rowId: string;
}

/**
 * The keys from `SECRETS_ENCRYPTION_KEYS`: the first one seals, every one opens what names its kid.
 * Serialises to its key ids only, so logging a config that holds it leaks no key.
 */
export class SecretKeyring {
  private constructor(
    readonly activeKid: string,
    private readonly keys: ReadonlyMap<string, Buffer>,
  ) {}

  /**
   * Parses `<kid>:<base64 of 32 bytes>[,<kid>:<key>…]`, active key first (docs/configuration.md).
   * Throws an Error whose message says what is wrong and never contains key material.
   */
  static parse(text: string): SecretKeyring {
    const entries = text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (entries.length === 0) throw new Error('expected "<kid>:<base64 of 32 bytes>[,<older kid>:<key>]"');
    const keys = new Map<string, Buffer>();
    for (const [index, entry] of entries.entries()) {
      const colon = entry.indexOf(':');
      const kid = colon < 0 ? '' : entry.slice(0, colon);
      if (!KID_PATTERN.test(kid)) throw new Error(`entry ${index + 1}: the key id must be 1-32 of A-Z a-z 0-9 _ - before a ":"`);
      if (keys.has(kid)) throw new Error(`key id "${kid}" appears twice`);
      const key = Buffer.from(entry.slice(colon + 1), 'base64');
      if (key.length !== KEY_BYTES) throw new Error(`key "${kid}" must be base64 of exactly ${KEY_BYTES} bytes, got ${key.length}`);
      keys.set(kid, key);
    }
    return new SecretKeyring(entries[0].slice(0, entries[0].indexOf(':')), keys);
  }

  /** A fresh random key in the `SECRETS_ENCRYPTION_KEYS` format, for local runs and tests. */
  static generateText(kid = `k${Date.now().toString(36)}`): string {
    return `${kid}:${randomBytes(KEY_BYTES).toString('base64')}`;
  }

  key(kid: string): Buffer | undefined {
    return this.keys.get(kid);
  }

  get kids(): string[] {
    return [...this.keys.keys()];
  }

  toJSON(): { active_kid: string; kids: string[] } {
    return { active_kid: this.activeKid, kids: this.kids };
  }
}

export interface SecretCipher {
  /** Encrypts under the active key, bound to `at`. */
  seal(plaintext: string, at: SecretLocation): string;
  /** Decrypts a sealed value; throws if it is not sealed, names an unknown kid, or was moved from elsewhere. */
  open(sealed: string, at: SecretLocation): string;
  /** True when the value is not sealed under the active key: plaintext, or a retired kid. */
  needsReseal(stored: string): boolean;
  readonly activeKid: string;
}

function aad(at: SecretLocation): Buffer {
  return Buffer.from(`switchboard:${VERSION}:${at.table}.${at.column}:${at.rowId}`, 'utf8');
}

export function createSecretCipher(keyring: SecretKeyring): SecretCipher {
  const describe = (at: SecretLocation) => `${at.table}.${at.column} of ${at.rowId}`;
  return {
    activeKid: keyring.activeKid,
    seal(plaintext, at) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', keyring.key(keyring.activeKid) as Buffer, iv);
      cipher.setAAD(aad(at));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return [VERSION, keyring.activeKid, iv.toString('base64url'), body.toString('base64url')].join('.');
    },
    open(sealed, at) {
      const parts = sealed.split('.');
      if (parts.length !== 4 || parts[0] !== VERSION) throw new Error(`${describe(at)} is not a sealed secret (run \`switchboard secrets reencrypt\`)`);
      const [, kid, ivText, bodyText] = parts;
      const key = keyring.key(kid);
      if (!key) throw new Error(`${describe(at)} is sealed with key "${kid}", which SECRETS_ENCRYPTION_KEYS does not hold`);
      const iv = Buffer.from(ivText, 'base64url');
      const body = Buffer.from(bodyText, 'base64url');
      if (iv.length !== IV_BYTES || body.length < TAG_BYTES) throw new Error(`${describe(at)} is malformed`);
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAAD(aad(at));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new Error(`${describe(at)} does not authenticate: wrong key, or a value moved from another row`);
      }
    },
    needsReseal(stored) {
      return !stored.startsWith(`${VERSION}.${keyring.activeKid}.`);
    },
  };
}
