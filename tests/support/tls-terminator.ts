/**
 * TLS in front of the Temporal dev server, which has no TLS flags (issue 24): throw-away certificates made with
 * openssl at test time (a server CA, a server certificate for 127.0.0.1 and `temporal.test`, a client CA and a
 * client certificate, and an unrelated CA), and a Node `tls` server offering ALPN `h2` that pipes each
 * connection to the dev server's TCP port, optionally requiring a client certificate (mutual TLS).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';

export interface TestCertificates {
  dir: string;
  /** PEM files. */
  serverCa: string;
  serverCert: string;
  serverKey: string;
  clientCa: string;
  clientCert: string;
  clientKey: string;
  /** A CA that signed nothing here: trusting it alone must fail the handshake. */
  otherCa: string;
  remove(): void;
}

const openssl = (dir: string, args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });

/** A self-signed CA `<name>.pem` / `<name>.key`. */
function makeCa(dir: string, name: string): void {
  openssl(dir, [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${name}`,
    '-keyout', `${name}.key`, '-out', `${name}.pem`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
  ]); // prettier-ignore
}

/** A leaf `<name>.pem` / `<name>.key` signed by `ca`, with the given X.509 v3 extensions. */
function makeLeaf(dir: string, name: string, ca: string, extensions: string): void {
  openssl(dir, [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    `/CN=${name}`,
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
  ]);
  fs.writeFileSync(path.join(dir, `${name}.ext`), extensions);
  openssl(dir, [
    'x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.pem`, '-CAkey', `${ca}.key`, '-CAcreateserial',
    '-days', '2', '-out', `${name}.pem`, '-extfile', `${name}.ext`,
  ]); // prettier-ignore
}

/**
 * Makes the certificates in a fresh temporary folder.
 * @throws Error when openssl is missing or fails.
 */
export function makeTestCertificates(): TestCertificates {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-tls-'));
  makeCa(dir, 'server-ca');
  makeCa(dir, 'client-ca');
  makeCa(dir, 'other-ca');
  makeLeaf(
    dir,
    'server',
    'server-ca',
    'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n' +
      'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:temporal.test\n',
  );
  makeLeaf(
    dir,
    'client',
    'client-ca',
    'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n',
  );
  const file = (name: string) => path.join(dir, name);
  return {
    dir,
    serverCa: file('server-ca.pem'),
    serverCert: file('server.pem'),
    serverKey: file('server.key'),
    clientCa: file('client-ca.pem'),
    clientCert: file('client.pem'),
    clientKey: file('client.key'),
    otherCa: file('other-ca.pem'),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export interface TlsTerminator {
  /** `127.0.0.1:<port>`, a TEMPORAL_ADDRESS. */
  address: string;
  /** Handshakes that failed (no or a wrong client certificate, an untrusted server certificate). */
  failedHandshakes(): number;
  close(): Promise<void>;
}

/**
 * Starts a TLS server on a free loopback port forwarding to `target` (`host:port`); with `clientCa` it
 * requires a client certificate signed by that CA.
 */
export async function startTlsTerminator(
  target: string,
  certs: TestCertificates,
  opts: { requireClientCertificate?: boolean } = {},
): Promise<TlsTerminator> {
  const [host = '127.0.0.1', port = '7233'] = target.split(':');
  const sockets = new Set<net.Socket>();
  let failed = 0;
  const server = tls.createServer(
    {
      key: fs.readFileSync(certs.serverKey),
      cert: fs.readFileSync(certs.serverCert),
      ALPNProtocols: ['h2'],
      ...(opts.requireClientCertificate && {
        ca: fs.readFileSync(certs.clientCa),
        requestCert: true,
        rejectUnauthorized: true,
      }),
    },
    (client) => {
      const upstream = net.connect(Number(port), host);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.once('close', () => sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    },
  );
  server.on('tlsClientError', () => failed++);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as net.AddressInfo;
  return {
    address: `127.0.0.1:${bound}`,
    failedHandshakes: () => failed,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
