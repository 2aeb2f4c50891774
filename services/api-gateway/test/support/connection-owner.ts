import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** The pids of a process's children, from /proc (Linux): the gateway primary's workers. */
export function childPids(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text === '' ? [] : text.split(/\s+/).map(Number);
}

/** The inode of the server side of the TCP connection whose client end is `clientPort`, from /proc/net/tcp. */
function serverSocketInode(serverPort: number, clientPort: number): string | undefined {
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10) continue;
    const [local, remote, inode] = [fields[1], fields[2], fields[9]];
    if (local.endsWith(`:${hex(serverPort)}`) && remote.endsWith(`:${hex(clientPort)}`)) return inode;
  }
  return undefined;
}

/**
 * Which of `pids` holds the server end of a connection: how a test tells which cluster worker a client's
 * keep-alive connection was handed to.
 */
export function connectionOwner(pids: number[], serverPort: number, clientPort: number): number | undefined {
  const inode = serverSocketInode(serverPort, clientPort);
  if (inode === undefined) return undefined;
  for (const pid of pids) {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`) return pid;
      } catch {
        // The descriptor closed while we looked.
      }
    }
  }
  return undefined;
}
