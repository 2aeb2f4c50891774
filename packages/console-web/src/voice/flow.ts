// What the console knows about an agent's flow: its nodes and the exits between them (docs/voice-agents.md#node-types).

export interface FlowNode {
  type: string;
  [field: string]: unknown;
}

export interface Flow {
  start: string;
  nodes: Record<string, FlowNode>;
}

export interface Agent {
  id: string;
  name: string;
  flow: Flow;
  voice: string | null;
  llm: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

export interface FlowEdge {
  from: string;
  to: string;
  /** Why the call takes this exit: `next`, `no_input`, a gather's match or a branch's condition. */
  label: string;
}

// The same exit fields the API checks a flow's graph by; a field the API adds later simply draws no edge.
const SINGLE_EXITS = ['next', 'no_input', 'no_match', 'on_error', 'else'];

export function flowEdges(flow: Flow): FlowEdge[] {
  const edges: FlowEdge[] = [];
  for (const [name, node] of Object.entries(flow.nodes ?? {})) {
    for (const key of SINGLE_EXITS) if (typeof node[key] === 'string') edges.push({ from: name, to: node[key], label: key === 'next' ? '' : key });
    const branches = Array.isArray(node.branches) ? (node.branches as Array<{ match?: unknown; next?: unknown }>) : [];
    for (const b of branches) if (typeof b?.next === 'string') edges.push({ from: name, to: b.next, label: `= ${String(b.match)}` });
    const conditions = Array.isArray(node.conditions) ? (node.conditions as Array<{ if?: unknown; next?: unknown }>) : [];
    for (const c of conditions) if (typeof c?.next === 'string') edges.push({ from: name, to: c.next, label: `if ${String(c.if)}` });
  }
  return mergeParallel(edges);
}

// Two exits between the same nodes (a gather's no_input and no_match, say) are drawn as one arrow with both labels.
function mergeParallel(edges: FlowEdge[]): FlowEdge[] {
  const merged = new Map<string, FlowEdge>();
  for (const e of edges) {
    const key = `${e.from}\u0000${e.to}`;
    const seen = merged.get(key);
    if (!seen) merged.set(key, { ...e });
    else seen.label = [seen.label || 'next', e.label || 'next'].join(', ');
  }
  return [...merged.values()];
}

/** Nodes in columns by their distance from `start`; nodes no path reaches go in a last column. */
export function flowColumns(flow: Flow, edges: FlowEdge[]): string[][] {
  const depth = new Map<string, number>();
  const names = Object.keys(flow.nodes ?? {});
  if (flow.start in (flow.nodes ?? {})) depth.set(flow.start, 0);
  const queue = depth.size ? [flow.start] : [];
  while (queue.length) {
    const at = queue.shift()!;
    for (const e of edges) {
      if (e.from === at && names.includes(e.to) && !depth.has(e.to)) {
        depth.set(e.to, depth.get(at)! + 1);
        queue.push(e.to);
      }
    }
  }
  const columns: string[][] = [];
  for (const name of names) {
    const d = depth.get(name);
    if (d !== undefined) (columns[d] ??= []).push(name);
  }
  const unreachable = names.filter((n) => !depth.has(n));
  if (unreachable.length) columns.push(unreachable);
  return columns.filter(Boolean);
}
