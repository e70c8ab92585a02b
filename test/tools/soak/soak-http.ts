import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server on 127.0.0.1 for the soak's sender and driver to talk to. */
export async function startLocalServer(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
