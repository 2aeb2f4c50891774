import { flowColumns, flowEdges, type Flow } from './flow';

const NODE_W = 150;
const NODE_H = 46;
const COL_GAP = 90;
const ROW_GAP = 28;

/**
 * An agent's flow as an inline SVG: one box per node, columns by distance from the start, an arrow per exit. The
 * node list in the figure's description repeats the graph as text for screen readers.
 */
export function FlowGraph({ flow, visited = [] }: { flow: Flow; visited?: string[] }) {
  const edges = flowEdges(flow);
  const columns = flowColumns(flow, edges);
  const position = new Map<string, { x: number; y: number }>();
  columns.forEach((column, c) => column.forEach((name, r) => position.set(name, { x: 10 + c * (NODE_W + COL_GAP), y: 10 + r * (NODE_H + ROW_GAP) })));
  const width = 20 + columns.length * (NODE_W + COL_GAP) - COL_GAP;
  const height = 20 + Math.max(1, ...columns.map((c) => c.length)) * (NODE_H + ROW_GAP) - ROW_GAP;
  const seen = new Set(visited);
  return (
    <figure className="flow">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width={width}
        height={height}
        role="img"
        aria-label={`Flow graph: ${Object.keys(flow.nodes ?? {}).length} nodes, ${edges.length} exits, starting at ${flow.start}`}
      >
        <defs>
          <marker id="flow-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M 0 0 L 10 5 L 0 10 z" className="flow-arrowhead" />
          </marker>
        </defs>
        {edges.map((e, i) => {
          const a = position.get(e.from);
          const b = position.get(e.to);
          if (!a || !b) return null;
          // Forward: right side to left side. Backward: left side to the earlier node's right side, bowed upwards so
          // that it does not run over the forward arrows. Same column: bottom to top.
          const forward = b.x > a.x;
          const backward = b.x < a.x;
          const x1 = forward ? a.x + NODE_W : backward ? a.x : a.x + NODE_W / 2;
          const y1 = forward || backward ? a.y + NODE_H / 2 : a.y + (b.y > a.y ? NODE_H : 0);
          const x2 = forward ? b.x : backward ? b.x + NODE_W : b.x + NODE_W / 2;
          const y2 = forward || backward ? b.y + NODE_H / 2 : b.y + (b.y > a.y ? 0 : NODE_H);
          const bow = backward ? -Math.max(24, Math.abs(x1 - x2) / 4) : 0;
          const cx = (x1 + x2) / 2;
          const cy = (y1 + y2) / 2 + bow;
          return (
            <g key={`${e.from}-${e.to}-${i}`} className="flow-edge">
              <path d={`M ${x1} ${y1} Q ${cx} ${cy} ${x2} ${y2}`} markerEnd="url(#flow-arrow)" />
              {e.label && (
                <text x={cx} y={(y1 + y2) / 2 + bow / 2 - 4} textAnchor="middle">
                  {e.label.length > 22 ? `${e.label.slice(0, 21)}…` : e.label}
                </text>
              )}
            </g>
          );
        })}
        {[...position].map(([name, p]) => (
          <g key={name} className={`flow-node${name === flow.start ? ' start' : ''}${seen.has(name) ? ' visited' : ''}`} data-node={name}>
            <rect x={p.x} y={p.y} width={NODE_W} height={NODE_H} rx={6} />
            <text x={p.x + NODE_W / 2} y={p.y + 19} textAnchor="middle" className="flow-name">
              {name.length > 18 ? `${name.slice(0, 17)}…` : name}
            </text>
            <text x={p.x + NODE_W / 2} y={p.y + 36} textAnchor="middle" className="flow-type">
              {flow.nodes[name]?.type ?? '?'}
            </text>
          </g>
        ))}
      </svg>
      <figcaption>
        <details>
          <summary>The flow as text</summary>
          <ul>
            {Object.entries(flow.nodes ?? {}).map(([name, node]) => (
              <li key={name}>
                <code>{name}</code> ({node.type}){name === flow.start ? ', the start' : ''}:{' '}
                {edges
                  .filter((e) => e.from === name)
                  .map((e) => `${e.label || 'next'} → ${e.to}`)
                  .join(', ') || 'ends the call'}
              </li>
            ))}
          </ul>
        </details>
      </figcaption>
    </figure>
  );
}
