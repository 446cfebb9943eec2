import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { badInput } from '../../common/errors';

export interface UrlPolicy {
  allowHttp: boolean;
  allowPrivateNetworks: boolean;
}

/** A checked endpoint URL and the addresses it resolved to (all of them public, unless the policy allows private ones). */
export interface ResolvedUrl {
  url: URL;
  addresses: { address: string; family: 4 | 6 }[];
}

/** Why an address may not be called: loopback, private, link-local (cloud metadata), … ; null when it is public unicast. */
export function unsafeRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const parsed = ipaddr.process(address); // IPv4-mapped IPv6 is judged as the IPv4 address it carries
  const range = parsed.range();
  return range === 'unicast' ? null : range;
}

/** The URL's form: a 400 naming `field` unless it is an absolute https (or allowed http) URL without credentials. */
export function checkUrlForm(raw: string, policy: UrlPolicy, field = 'url'): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badInput(field, 'must be an absolute URL');
  }
  if (url.protocol !== 'https:' && !(policy.allowHttp && url.protocol === 'http:')) {
    throw badInput(field, policy.allowHttp ? 'must be an https:// or http:// URL' : 'must be an https:// URL');
  }
  if (url.username || url.password) throw badInput(field, 'must not carry a user name or password');
  if (!url.hostname) throw badInput(field, 'must name a host');
  url.hash = '';
  return url;
}

/**
 * Resolves the URL's host and checks every address it resolves to (an IP literal is checked as
 * is). Done at registration and again before each delivery, which then connects to an address
 * checked here (not to a second lookup's answer: DNS rebinding).
 */
export async function resolveSafely(url: URL, policy: UrlPolicy & { timeoutMs: number }, field = 'url'): Promise<ResolvedUrl> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: 4 | 6 }[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }];
  } else {
    let timer: NodeJS.Timeout | undefined;
    const tooLate = badInput(field, `host ${host} did not resolve within ${policy.timeoutMs} ms`);
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(tooLate), policy.timeoutMs);
    });
    try {
      const found = await Promise.race([lookup(host, { all: true, verbatim: true }), late]);
      addresses = found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
    } catch (error) {
      throw error === tooLate ? tooLate : badInput(field, `host ${host} does not resolve`);
    } finally {
      clearTimeout(timer);
    }
    if (addresses.length === 0) throw badInput(field, `host ${host} does not resolve`);
  }
  if (!policy.allowPrivateNetworks) {
    for (const { address } of addresses) {
      const range = unsafeRange(address);
      if (range) throw badInput(field, `resolves to a non-public address (${range}): loopback, private, link-local and metadata addresses are refused`);
    }
  }
  return { url, addresses };
}
