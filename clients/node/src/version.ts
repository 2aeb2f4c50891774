/** Sent in User-Agent; keep in step with package.json's version. */
export const SDK_VERSION = '0.1.0';
