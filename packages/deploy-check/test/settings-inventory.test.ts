import { documentedSettings, readSettings, statedSettingsCount } from '../src/settings-inventory';

// docs/configuration.md, "What is a setting": each name read is documented there, and each documented name is read.
const inventory = readSettings();
const documented = documentedSettings();
const read = [...inventory.read.keys()].sort();

describe('settings (docs/configuration.md)', () => {
  it('reads every name as written out, so that it can be checked here', () => {
    expect(inventory.builtNames).toEqual([]);
  });

  it('documents every name the code reads', () => {
    expect(read.filter((name) => !documented.has(name)).map((name) => `${name} (${inventory.read.get(name)?.join(', ')})`)).toEqual([]);
  });

  it('reads every name it documents', () => {
    expect([...documented].filter((name) => !inventory.read.has(name)).sort()).toEqual([]);
  });

  it('states the count in its introduction, and keeps it within the sixty a person can hold in mind', () => {
    process.stdout.write(`settings read: ${read.length}\n${read.join(' ')}\n`);
    expect(statedSettingsCount()).toBe(read.length);
    expect(read.length).toBeLessThanOrEqual(60);
  });
});
