import cluster from 'node:cluster';
import { getLogger } from '@switchboard/logger';
import { runGatewayPrimary } from './cluster/gateway-primary';
import { loadPrimaryConfig } from './cluster/primary.config';

// One process, or a thin primary and GATEWAY_WORKERS workers on one port (docs/running.md#gateway-workers).
// The primary never loads the application: serve-gateway is required in the workers only.
const primaryConfig = loadPrimaryConfig();
if (cluster.isPrimary && primaryConfig.workers > 1) {
  runGatewayPrimary(primaryConfig, getLogger({ service: 'api-gateway', level: primaryConfig.logLevel, format: primaryConfig.logFormat }));
} else {
  import('./serve-gateway')
    .then(({ serveGateway }) => serveGateway())
    .catch((error: Error) => {
      process.stderr.write(`api-gateway failed to start: ${error.stack ?? error.message}\n`);
      process.exit(1);
    });
}
