/**
 * Typed readers over an environment map. Services call these only from their `config.ts`, which
 * collects every problem and exits once with all of them (STYLE: one validated, frozen config object).
 */
export type Env = Record<string, string | undefined>;

export class EnvReader {
  readonly problems: string[] = [];

  constructor(readonly env: Env) {}

  string(name: string, fallback?: string): string {
    const value = this.env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback === undefined) {
      this.problems.push(`${name} is required`);
      return '';
    }
    return fallback;
  }

  optionalString(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value === '' ? undefined : value;
  }

  int(name: string, fallback: number, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be an integer in ${min}..${max}, got "${raw}"`);
      return fallback;
    }
    return value;
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
    this.problems.push(`${name} must be true or false, got "${raw}"`);
    return fallback;
  }

  list(name: string, fallback: string[]): string[] {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  }

  /**
   * An optional variable holding one JSON object (OPT_OUT_REPLIES, SANDBOX_UPSTREAMS): undefined when unset, or when
   * it is not an object, which is then a problem `${name} must be a JSON object ${shape}`. Its keys are the caller's.
   */
  jsonObject(name: string, shape: string): Record<string, unknown> | undefined {
    const raw = this.optionalString(name);
    if (raw === undefined || raw.trim() === '') return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (error) {
      this.problems.push(`${name} must be a JSON object ${shape}: ${(error as Error).message}`);
      return undefined;
    }
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    this.problems.push(`${name} must be a JSON object ${shape}`);
    return undefined;
  }

  /**
   * A required variable turned into a value by `parse`, which throws an Error saying what is wrong.
   * On a problem the value is unusable, which is safe only because `finish` then exits.
   */
  parsed<T>(name: string, parse: (text: string) => T, hint: string): T {
    const raw = this.env[name];
    if (raw === undefined || raw === '') {
      this.problems.push(`${name} is required: ${hint}`);
      return undefined as unknown as T;
    }
    try {
      return parse(raw);
    } catch (error) {
      this.problems.push(`${name} is invalid: ${(error as Error).message} (${hint})`);
      return undefined as unknown as T;
    }
  }

  /** Exits with every collected problem at once, so a misconfigured deployment says everything that is wrong. */
  finish<T extends object>(service: string, config: T): Readonly<T> {
    if (this.problems.length > 0) {
      process.stderr.write(`${service}: invalid configuration:\n${this.problems.map((p) => `  - ${p}`).join('\n')}\n`);
      process.exit(78);
    }
    return Object.freeze(config);
  }
}
