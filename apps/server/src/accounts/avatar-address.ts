import { BlockList, isIP } from 'node:net';

// Addresses inside someone's network: every viewer's browser would ask them for the picture.
const INTERNAL = new BlockList();
INTERNAL.addSubnet('0.0.0.0', 8, 'ipv4');
INTERNAL.addSubnet('10.0.0.0', 8, 'ipv4');
INTERNAL.addSubnet('127.0.0.0', 8, 'ipv4');
INTERNAL.addSubnet('169.254.0.0', 16, 'ipv4');
INTERNAL.addSubnet('172.16.0.0', 12, 'ipv4');
INTERNAL.addSubnet('192.168.0.0', 16, 'ipv4');
INTERNAL.addAddress('::', 'ipv6');
INTERNAL.addAddress('::1', 'ipv6');
INTERNAL.addSubnet('fc00::', 7, 'ipv6');
INTERNAL.addSubnet('fe80::', 10, 'ipv6');
// IPv4 written as IPv6 (`[::ffff:127.0.0.1]`) is checked against the IPv4 ranges by BlockList.

/** Names that only mean something inside a network (RFC 6761, RFC 6762, ICANN's `.internal`). */
const INTERNAL_NAME = /(^|\.)(localhost|local|internal)$/;

/** Whether `hostname` (as `URL` writes it: lower case, IPv6 in brackets) is inside a network. */
function isInternalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  const family = isIP(host);
  if (family === 4) return INTERNAL.check(host, 'ipv4');
  if (family === 6) return INTERNAL.check(host, 'ipv6');
  return host === '' || INTERNAL_NAME.test(host);
}

/**
 * `url` as the normalised `https:` address a browser would load (`new URL(url).href`), or
 * `null` when it may not be shown to others: not `https:`, with a user name or password, with
 * a control character or line break, or naming a host inside a network (localhost, private and
 * link-local addresses, `.local` and `.internal` names).
 */
export function publicHttpsAddress(url: string): string | null {
  // URL drops tabs and line breaks silently; an address holding them was not meant as one.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(url)) return null;
  if (!/^https:\/\//i.test(url) || !URL.canParse(url)) return null;
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' || parsed.username || parsed.password) return null;
  if (isInternalHost(parsed.hostname)) return null;
  return parsed.href;
}
