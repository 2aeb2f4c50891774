// A client that talks to the gateway the way a proxy or load balancer does: through a fixed pool of established
// keep-alive connections. The gateway-SIGTERM case uses it because Kubernetes' preStop pause (k8s/helm) stops
// new connections before the signal; a connection still in the kernel's accept queue when the gateway closes its
// listener is reset by TCP itself, before the gateway could read anything (docs/operations.md#chaos-suite).
import http from 'node:http';

export function createKeepAliveClient(baseUrl, key, { sockets = 16 } = {}) {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const request = (method, path, body) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path,
          method,
          agent,
          headers: { authorization: `Bearer ${key}`, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            resolve({ status: res.statusCode, body: text ? JSON.parse(text) : undefined });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  return {
    request,
    /** Opens every pooled connection now, so the load never dials during the fault. */
    warm: () => Promise.all(Array.from({ length: sockets }, () => request('GET', '/healthz'))),
    close: () => agent.destroy(),
  };
}
