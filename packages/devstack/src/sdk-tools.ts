import { spawnSync } from 'node:child_process';
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

/** Installs, with apt, whichever of python3, php-cli, php-curl and phpunit is missing; a no-op when all are present. */
export function ensureSdkTools(): void {
  const missing = SDK_TOOLS.filter((tool) => !has(tool.command)).flatMap((tool) => tool.aptPackages);
  if (!missing.includes('php-curl') && !hasPhpCurl()) missing.push('php-curl');
  if (missing.length > 0) aptInstall(missing);
}
