// A proxy on 127.0.0.1 that records each CONNECT and tunnels it to an https front for a made-up host
// name: the front holds a certificate for that name (trusted by a CLI started with
// NODE_EXTRA_CA_CERTS=caFile) and passes what it decrypts to a plain server on this machine. So a
// request to https://<name>/… that honours HTTPS_PROXY reaches the local server, and one that
// does not fails (the name resolves nowhere).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { tempDir } from './cleanup.js';

export interface TlsProxy {
  /** http://127.0.0.1:<port>, for HTTPS_PROXY. */
  url: string;
  /** The certificate of `name`, for NODE_EXTRA_CA_CERTS. */
  caFile: string;
  /** `CONNECT host:port` for each tunnel asked for, in order. */
  tunnels: string[];
  /** What the client sent through the tunnels (as latin1): the proxy's view, encrypted end to end. */
  carried(): string;
  close(): Promise<void>;
}

/** A proxy whose tunnels to `name` (any port) reach the plain server on 127.0.0.1:`upstreamPort` through TLS. */
export async function startTlsProxy(name: string, upstreamPort: number): Promise<TlsProxy> {
  const dir = tempDir('checkin-tls-');
  const key = join(dir, 'key.pem');
  const caFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      caFile,
      '-days',
      '1',
      '-subj',
      `/CN=${name}`,
      '-addext',
      `subjectAltName=DNS:${name}`,
    ],
    { stdio: 'ignore' },
  );
  // Every socket opened, ended at close (a tunnel is no longer the proxy server's to close).
  const open = new Set<{ destroy(): void }>();
  const keep = <T extends { destroy(): void; once(e: 'close', f: () => void): unknown }>(s: T): T => {
    open.add(s);
    s.once('close', () => open.delete(s));
    return s;
  };
  const front = createTlsServer({ key: readFileSync(key), cert: readFileSync(caFile) }, (socket) => {
    keep(socket);
    const upstream = keep(connect(upstreamPort, '127.0.0.1'));
    socket.pipe(upstream).pipe(socket);
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const tunnels: string[] = [];
  let carried = '';
  const proxy = createServer((_req, res) => res.writeHead(400).end());
  proxy.on('connect', (req, socket, head) => {
    keep(socket);
    tunnels.push(`CONNECT ${req.url}`);
    if (!req.url?.startsWith(`${name}:`)) return void socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    const upstream = keep(
      connect((front.address() as AddressInfo).port, '127.0.0.1', () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        socket.on('data', (d: Buffer) => (carried += d.toString('latin1')));
        socket.pipe(upstream).pipe(socket);
      }),
    );
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    caFile,
    tunnels,
    carried: () => carried,
    async close() {
      for (const s of open) s.destroy();
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
      await new Promise((resolve) => front.close(resolve));
    },
  };
}
