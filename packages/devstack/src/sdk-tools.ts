import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aptInstall, has } from './infra';

// What the client SDK suites run (clients/python, clients/php; see clients/README.md): the command each test
// spawns and the Debian package that provides it. php-curl has no command of its own, so it is checked via php.
const SDK_TOOLS: ReadonlyArray<{ command: string; aptPackages: string[] }> = [
  { command: 'python3', aptPackages: ['python3'] },
  { command: 'php', aptPackages: ['php-cli', 'php-curl'] },
  { command: 'phpunit', aptPackages: ['phpunit'] },
];

function hasPhpCurl(): boolean {
  return has('php') && spawnSync('php', ['-r', 'exit(function_exists("curl_init") ? 0 : 1);'], { stdio: 'ignore' }).status === 0;
}

/**
 * Whether `python3 -m venv` makes a venv with pip, as the Python quick start does (clients/python/README.md): Debian
 * ships that part of the standard library separately, in python3-venv.
 */
function hasPythonVenv(): boolean {
  if (!has('python3')) return false;
  const dir = mkdtempSync(join(tmpdir(), 'sb-venv-check-'));
  try {
    return spawnSync('python3', ['-m', 'venv', join(dir, 'venv')], { stdio: 'ignore' }).status === 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Installs, with apt, whichever of python3 (with venv), php-cli, php-curl and phpunit is missing; a no-op when all are present. */
export function ensureSdkTools(): void {
  const missing = SDK_TOOLS.filter((tool) => !has(tool.command)).flatMap((tool) => tool.aptPackages);
  if (!missing.includes('php-curl') && !hasPhpCurl()) missing.push('php-curl');
  if (!hasPythonVenv()) missing.push('python3-venv');
  if (missing.length > 0) aptInstall(missing);
}
