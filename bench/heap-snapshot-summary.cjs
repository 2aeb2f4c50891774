// Summarises a V8 heap snapshot (docs/performance/memory.md#memory): the self size of every node, totalled by
// constructor for objects and closures and by kind for the rest (strings, compiled code, arrays, shapes).
// A snapshot holds only what survived the full collection that precedes it, so this is the live set.
// Usage: node --max-old-space-size=2000 bench/heap-snapshot-summary.cjs <file.heapsnapshot> [rows=20]
const { readFileSync } = require('node:fs');

const snapshot = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const fields = snapshot.snapshot.meta.node_fields;
const kinds = snapshot.snapshot.meta.node_types[0];
const [TYPE, NAME, SIZE] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
const totals = new Map();
let all = 0;
for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
  const kind = kinds[snapshot.nodes[i + TYPE]];
  const key = ['object', 'closure', 'native'].includes(kind) ? `${kind} ${snapshot.strings[snapshot.nodes[i + NAME]]}` : `(${kind})`;
  const size = snapshot.nodes[i + SIZE];
  const total = totals.get(key) ?? { bytes: 0, count: 0 };
  total.bytes += size;
  total.count += 1;
  totals.set(key, total);
  all += size;
}
console.log(`live set ${(all / 1048576).toFixed(1)} MB in ${snapshot.nodes.length / fields.length} nodes`);
for (const [key, { bytes, count }] of [...totals].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, Number(process.argv[3] ?? 20))) {
  console.log(`${(bytes / 1048576).toFixed(2).padStart(8)} MB ${String(count).padStart(8)}  ${key.slice(0, 100)}`);
}
