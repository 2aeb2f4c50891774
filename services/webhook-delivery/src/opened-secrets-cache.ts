import type { SecretCipher } from '@switchboard/store';

/** Sealed values whose opened form is kept; beyond this the oldest is dropped. @defaultValue 10000 */
export const OPENED_SECRETS_KEPT = 10_000;

/**
 * A cipher whose `open` remembers what each sealed value opened to. Every attempt still reads the
 * endpoint's sealed secrets fresh from the store (docs/webhooks.md, "How nothing is lost"); only the
 * AES-GCM work of opening the same stored value again is saved. The cache is keyed by the sealed text
 * and where it is stored (the authenticated data): a rotation stores newly sealed values (a fresh iv
 * each), so the rotated secret is a miss and the old entry just ages out. Failures are not kept.
 */
export function withOpenedSecretsCache(cipher: SecretCipher, kept = OPENED_SECRETS_KEPT): SecretCipher {
  const opened = new Map<string, string>();
  return {
    get activeKid() {
      return cipher.activeKid;
    },
    seal: (plaintext, at) => cipher.seal(plaintext, at),
    needsReseal: (stored) => cipher.needsReseal(stored),
    open(sealed, at) {
      const key = `${at.table}.${at.column}:${at.rowId}\n${sealed}`;
      let plaintext = opened.get(key);
      if (plaintext === undefined) {
        plaintext = cipher.open(sealed, at);
        if (opened.size >= kept) opened.delete(opened.keys().next().value as string);
        opened.set(key, plaintext);
      }
      return plaintext;
    },
  };
}
