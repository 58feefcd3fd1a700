import getPort, { portNumbers } from 'get-port';

/** The lowest port of Linux's default ephemeral range (`net.ipv4.ip_local_port_range`). */
const EPHEMERAL_START = 32768;

/**
 * A port a test server can listen on: free now, and below the kernel's ephemeral range.
 *
 * A port from `listen(0)` comes from the ephemeral range, the same range the kernel hands to
 * outgoing connections: between closing the probe and the server's own `listen`, any connection
 * on the machine (a browser, a database client, another test) may take it, and the server dies
 * with EADDRINUSE. Below that range only listeners choosing their port compete, and the random
 * start keeps parallel test files from probing the same ports in the same order.
 */
export async function listenPort(): Promise<number> {
  const start = 20_000 + Math.floor(Math.random() * 12_000);
  return getPort({ port: portNumbers(start, EPHEMERAL_START - 1) });
}
