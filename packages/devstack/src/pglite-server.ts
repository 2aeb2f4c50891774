import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * Embedded PostgreSQL for `npm start` without DATABASE_URL: PGlite (the same SQL) behind its
 * wire-protocol socket server, so every service still talks plain `pg` to one shared database.
 * Usage: node pglite-server.js <data-dir> <port>
 */
async function main(): Promise<void> {
  const [dataDir, port] = process.argv.slice(2);
  const db = await PGlite.create(dataDir);
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: Number(port), maxConnections: 100 });
  await server.start();
  process.stdout.write(`${JSON.stringify({ event: 'ready', service: 'pglite', port: Number(port) })}\n`);
  const stop = async () => {
    await server.stop();
    await db.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

void main().catch((error) => {
  process.stderr.write(`pglite: ${(error as Error).stack}\n`);
  process.exit(1);
});
