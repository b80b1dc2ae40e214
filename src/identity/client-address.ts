import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import parseForwarded from 'forwarded-parse';
import ipaddr from 'ipaddr.js';
import proxyaddr from 'proxy-addr';

/**
 * Which proxies in front of the service may say who the client is (TRUST_PROXY): none (the socket's
 * peer is the client), the nearest `hops` proxies, or the proxies at these addresses and ranges
 * (`10.0.0.0/8`, `loopback`, ...; proxy-addr's names).
 */
export type TrustedProxies = { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'addresses'; addresses: string[] };

/** The request parts an address is read from. */
export interface AddressedRequest {
  headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>;
  socketAddress: string | undefined;
}

/** Reads TRUST_PROXY: `none` (or unset), a hop count, or comma-separated addresses, ranges and proxy-addr's names. Throws on junk. */
export function trustedProxies(value: string | undefined): TrustedProxies {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'none') return { kind: 'none' };
  if (/^\d+$/.test(text)) return { kind: 'hops', hops: Number(text) };
  const addresses = text.split(',').map((part) => part.trim()).filter(Boolean);
  // proxy-addr's own reading: throws a TypeError naming what it cannot read.
  proxyaddr.compile(addresses);
  return { kind: 'addresses', addresses };
}

/**
 * The address a caller is told apart by when it has no key (issue 29): the client's address as the
 * trusted proxies report it (X-Forwarded-For, or RFC 7239 Forwarded when that is all there is; never
 * a header from an untrusted peer), IPv4 as it is and IPv6 by its /64, the block one home or host
 * is given (one machine can take any address of it).
 */
export class ClientAddresses {
  private readonly trust: ((address: string, hop: number) => boolean) | undefined;

  constructor(proxies: TrustedProxies) {
    this.trust =
      proxies.kind === 'none' ? undefined : proxies.kind === 'hops' ? (_address, hop) => hop < proxies.hops : proxyaddr.compile(proxies.addresses);
  }

  /** `203.0.113.7`, `2001:db8:1:2::/64`, or `unknown` when the socket has gone. */
  of(request: AddressedRequest): string {
    const socket = request.socketAddress;
    if (socket === undefined) return 'unknown';
    if (!this.trust) return group(socket);
    const sent = request.headers['x-forwarded-for'];
    const forwardedFor = (Array.isArray(sent) ? sent.join(', ') : sent) ?? forwardedAsList(request.headers['forwarded']);
    // proxy-addr walks from the socket outwards while each hop is trusted.
    const view = { headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }, socket: { remoteAddress: socket } };
    return group(proxyaddr(view as unknown as IncomingMessage, this.trust));
  }
}

/** RFC 7239 `Forwarded: for=…, for=…` as an X-Forwarded-For list (ports and brackets dropped); undefined when absent or unreadable. */
function forwardedAsList(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  try {
    const hops = parseForwarded(Array.isArray(header) ? header.join(',') : header);
    return hops.map((hop) => nodeAddress(hop['for'] ?? 'unknown')).join(', ');
  } catch {
    return undefined;
  }
}

/** `"[2001:db8::1]:4711"` → `2001:db8::1`, `192.0.2.43:47011` → `192.0.2.43`; obfuscated names (`_hidden`, `unknown`) stay as they are. */
function nodeAddress(node: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(node);
  if (bracketed) return bracketed[1]!;
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(node);
  return withPort ? withPort[1]! : node;
}

const PLAIN_IPV4 = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** IPv4 (also mapped into IPv6) as it is; IPv6 as its /64; anything else as given. */
function group(address: string): string {
  // The common shapes without a parse (this runs for every request without a key).
  if (PLAIN_IPV4.test(address)) return address;
  if (address.startsWith('::ffff:') && PLAIN_IPV4.test(address.slice(7))) return address.slice(7);
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const parts = v6.parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}
