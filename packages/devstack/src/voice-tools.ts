import { existsSync } from 'node:fs';
import { aptInstall, has } from './infra';

// The real SIP peers and audio tools the telephony tests drive (see docs/voice-telephony.md, "Telephony layer").
// Each entry is a command the tests run and the Debian package that provides it.
const VOICE_TOOLS: ReadonlyArray<{ command: string; aptPackage: string }> = [
  { command: 'baresip', aptPackage: 'baresip-core' },
  { command: 'sipp', aptPackage: 'sip-tester' },
  { command: 'sox', aptPackage: 'sox' },
  { command: 'flite', aptPackage: 'flite' },
  // The second local TTS engine (VOICE_TTS=espeak).
  { command: 'espeak-ng', aptPackage: 'espeak-ng' },
  // The orchestrator's speech input; the en-us model is its own package.
  { command: 'pocketsphinx_continuous', aptPackage: 'pocketsphinx' },
];

/** Files that a command's package does not bring. */
const VOICE_DATA: ReadonlyArray<{ path: string; aptPackage: string }> = [
  { path: '/usr/share/pocketsphinx/model/en-us/en-us', aptPackage: 'pocketsphinx-en-us' },
];

/** Installs, with apt, whichever of baresip, SIPp, sox, flite, espeak-ng and pocketsphinx (with its model) is missing; a no-op when all are present. */
export function ensureVoiceTools(): void {
  const missing = [
    ...VOICE_TOOLS.filter((tool) => !has(tool.command)).map((tool) => tool.aptPackage),
    ...VOICE_DATA.filter((data) => !existsSync(data.path)).map((data) => data.aptPackage),
  ];
  if (missing.length > 0) aptInstall(missing);
}
