import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';
import ipaddr from 'ipaddr.js';

/** Which hops may tell us the caller's address (`X-Forwarded-For`). */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * Reads `TRUST_PROXY` the way Express does: unset trusts nobody; a number trusts that many
 * proxies in front; otherwise a comma list of addresses, CIDR ranges or the names
 * `loopback`, `linklocal`, `uniquelocal` (proxy-addr). Throws on anything else.
 */
export function compileTrustProxy(value: string | undefined): TrustProxy {
  if (!value) return () => false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return proxyAddr.compile(value.split(',').map((part) => part.trim()));
}

/**
 * The caller's address as rate limits should count it: the socket's, or the one a trusted
 * proxy forwarded. An IPv6 caller is its /64 network, since one host holds the whole /64.
 */
export function callerAddress(
  incoming: Pick<IncomingMessage, 'headers' | 'socket'> | undefined,
  trust: TrustProxy,
): string {
  const socket = incoming?.socket;
  if (!socket?.remoteAddress) return 'local';
  const request = { headers: incoming?.headers ?? {}, connection: socket, socket };
  const address = proxyAddr(request as unknown as IncomingMessage, trust);
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}
