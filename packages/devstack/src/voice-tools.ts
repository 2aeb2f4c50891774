import { aptInstall, has } from './infra';

// The real SIP peers and audio tools the telephony tests drive (see docs/voice.md, "Telephony layer").
// Each entry is a command the tests run and the Debian package that provides it.
const VOICE_TOOLS: ReadonlyArray<{ command: string; aptPackage: string }> = [
  { command: 'baresip', aptPackage: 'baresip-core' },
  { command: 'sipp', aptPackage: 'sip-tester' },
  { command: 'sox', aptPackage: 'sox' },
  { command: 'flite', aptPackage: 'flite' },
];

/** Installs, with apt, whichever of baresip, SIPp, sox and flite is missing; a no-op when all are present. */
export function ensureVoiceTools(): void {
  const missing = VOICE_TOOLS.filter((tool) => !has(tool.command)).map((tool) => tool.aptPackage);
  if (missing.length > 0) aptInstall(missing);
}
