import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveDatabaseUrl } from '../src/connection';

describe('resolveDatabaseUrl', () => {
  let cwd: string;
  const writeLocal = (dir: string, url: string) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'local.json'), JSON.stringify({ database_url: url }));
  };

  beforeEach(() => {
    cwd = mkdtempSync(join(tmpdir(), 'sb-cli-connection-'));
  });
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  it('reads local.json from .switchboard in the working folder by default', () => {
    writeLocal(join(cwd, '.switchboard'), 'postgres://default');
    expect(resolveDatabaseUrl({}, cwd)).toBe('postgres://default');
  });

  it('reads local.json from SWITCHBOARD_HOME, relative to the working folder, instead', () => {
    writeLocal(join(cwd, '.switchboard'), 'postgres://default');
    writeLocal(join(cwd, 'other-home'), 'postgres://other');
    expect(resolveDatabaseUrl({ SWITCHBOARD_HOME: 'other-home' }, cwd)).toBe('postgres://other');
  });

  it('prefers DATABASE_URL and REDIS_URL when both are set', () => {
    writeLocal(join(cwd, '.switchboard'), 'postgres://default');
    expect(resolveDatabaseUrl({ DATABASE_URL: 'postgres://env', REDIS_URL: 'redis://env' }, cwd)).toBe('postgres://env');
  });

  it('fails with a hint when there is no running stack to find', () => {
    expect(() => resolveDatabaseUrl({ SWITCHBOARD_HOME: 'nowhere' }, cwd)).toThrow(/npm start.*SWITCHBOARD_HOME/);
    expect(() => resolveDatabaseUrl({ SWITCHBOARD_HOME: 'nowhere' }, cwd)).toThrow(join(cwd, 'nowhere', 'local.json'));
  });
});
