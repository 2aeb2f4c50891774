import { createHash } from 'node:crypto';

const STYLE = `
body{font:15px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#1d2330;color:#fff;padding:20px 32px}header a{color:#9cf}header h1{margin:0;font-size:22px}header p{margin:4px 0 0;opacity:.8}
main{max-width:1100px;margin:0 auto;padding:24px 32px}
details{background:#fff;border:1px solid #dde1e8;border-radius:8px;margin:0 0 12px}
summary{cursor:pointer;padding:12px 16px;display:flex;gap:12px;align-items:center}
.method{font:600 12px ui-monospace,monospace;text-transform:uppercase;padding:3px 8px;border-radius:4px;color:#fff;min-width:44px;text-align:center}
.get{background:#2f7d5b}.post{background:#2b5fb3}.put{background:#a36a12}.delete{background:#b33a3a}
.path{font:600 14px ui-monospace,monospace}.summary{color:#566}
.body{padding:0 16px 16px}h3{font-size:14px;margin:16px 0 6px;text-transform:uppercase;letter-spacing:.04em;color:#566}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #eef0f4;padding:6px 8px;text-align:left;vertical-align:top}
code,pre{font:13px ui-monospace,monospace}pre{background:#f3f5f8;padding:12px;border-radius:6px;overflow:auto;max-height:480px}
.lock{font-size:12px;color:#a36a12}
`;

/**
 * Renders the embedded document with plain DOM calls (textContent only, never innerHTML), so nothing
 * in the document can inject markup.
 */
const SCRIPT = `
(function () {
  var doc = JSON.parse(document.getElementById('openapi').textContent);
  var root = document.getElementById('operations');
  function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text != null) e.textContent = text; return e; }
  function resolve(node, seen) {
    if (Array.isArray(node)) return node.map(function (n) { return resolve(n, seen); });
    if (!node || typeof node !== 'object') return node;
    if (typeof node.$ref === 'string' && node.$ref.indexOf('#/') === 0) {
      if (seen.indexOf(node.$ref) >= 0) return { $ref: node.$ref };
      var target = node.$ref.slice(2).split('/').reduce(function (o, k) { return o && o[k]; }, doc);
      return resolve(target, seen.concat([node.$ref]));
    }
    var out = {};
    Object.keys(node).forEach(function (k) { out[k] = resolve(node[k], seen); });
    return out;
  }
  function schemaBlock(parent, title, schema) {
    parent.appendChild(el('h3', null, title));
    parent.appendChild(el('pre', null, JSON.stringify(resolve(schema, []), null, 2)));
  }
  document.getElementById('title').textContent = doc.info.title + ' ' + doc.info.version;
  document.getElementById('description').textContent = doc.info.description || '';
  Object.keys(doc.paths).forEach(function (path) {
    Object.keys(doc.paths[path]).forEach(function (method) {
      var op = doc.paths[path][method];
      var box = el('details');
      var head = el('summary');
      head.appendChild(el('span', 'method ' + method, method));
      head.appendChild(el('span', 'path', path));
      head.appendChild(el('span', 'summary', op.summary || ''));
      if (op.security) head.appendChild(el('span', 'lock', 'Bearer · ' + op.security.map(function (s) { return s.bearerAuth.join(' '); }).join(' ')));
      box.appendChild(head);
      var body = el('div', 'body');
      if (op.description) body.appendChild(el('p', null, op.description));
      var params = (op.parameters || []).map(function (p) { return resolve(p, []); });
      if (params.length) {
        body.appendChild(el('h3', null, 'Parameters'));
        var table = el('table');
        params.forEach(function (p) {
          var row = el('tr');
          row.appendChild(el('td', null, p.name));
          row.appendChild(el('td', null, p.in + (p.required ? ', required' : '')));
          row.appendChild(el('td', null, JSON.stringify(p.schema || {})));
          row.appendChild(el('td', null, p.description || ''));
          table.appendChild(row);
        });
        body.appendChild(table);
      }
      if (op.requestBody) {
        var content = op.requestBody.content || {};
        Object.keys(content).forEach(function (type) { schemaBlock(body, 'Request body (' + type + ')', content[type].schema || {}); });
      }
      body.appendChild(el('h3', null, 'Responses'));
      var responses = el('table');
      Object.keys(op.responses || {}).forEach(function (status) {
        var r = resolve(op.responses[status], []);
        var row = el('tr');
        row.appendChild(el('td', null, status));
        var cell = el('td', null, r.description || '');
        Object.keys(r.content || {}).forEach(function (type) {
          if (r.content[type].schema) { var d = el('details'); d.appendChild(el('summary', null, type)); d.appendChild(el('pre', null, JSON.stringify(resolve(r.content[type].schema, []), null, 2))); cell.appendChild(d); }
        });
        row.appendChild(cell);
        responses.appendChild(row);
      });
      body.appendChild(responses);
      box.appendChild(body);
      root.appendChild(box);
    });
  });
})();
`;

function cspHash(source: string): string {
  return `'sha256-${createHash('sha256').update(source).digest('base64')}'`;
}

export interface DocsPage {
  html: string;
  /** Allows exactly the page's own inline script and style, and nothing from the network. */
  contentSecurityPolicy: string;
}

/** A self-contained page (no CDN: deployments may be offline) that renders the OpenAPI document. */
export function renderDocsPage(document: object): DocsPage {
  // `<` is escaped so that no string in the document can close the script element.
  const json = JSON.stringify(document).replace(/</g, '\\u003c');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Switchboard API</title><style>${STYLE}</style></head>
<body><header><h1 id="title">Switchboard API</h1><p id="description"></p><p>Raw document: <a href="/v1/openapi.json">/v1/openapi.json</a></p></header>
<main id="operations"></main>
<script type="application/json" id="openapi">${json}</script>
<script>${SCRIPT}</script></body></html>`;
  return {
    html,
    contentSecurityPolicy: `default-src 'none'; script-src ${cspHash(SCRIPT)}; style-src ${cspHash(STYLE)}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  };
}
