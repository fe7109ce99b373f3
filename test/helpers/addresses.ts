/** Addresses for the SSRF guard's tests (src/outbound/ssrf.ts). */

/** Addresses the guard refuses, each with the range its message names. */
export const BLOCKED: [string, RegExp][] = [
  ['127.0.0.1', /loopback/],
  ['127.8.9.10', /loopback/],
  ['10.1.2.3', /private/],
  ['172.16.5.4', /private/],
  ['192.168.1.1', /private/],
  ['169.254.169.254', /link-local/],
  ['100.64.0.1', /carrier-grade NAT/],
  ['224.0.0.251', /multicast/],
  ['240.0.0.1', /reserved/],
  ['192.0.2.10', /reserved/],
  ['0.0.0.0', /0\.0\.0\.0 is an unspecified address/],
  ['255.255.255.255', /broadcast/],
  ['::1', /loopback/],
  ['::', /:: is an unspecified address/],
  ['fe80::1', /link-local/],
  ['fc00::1', /fc00::1 is a unique-local \(private\) address/],
  ['fd12:3456::1', /unique-local/],
  ['ff02::1', /multicast/],
  ['::ffff:127.0.0.1', /loopback.*ipv4Mapped|ipv4Mapped.*loopback|embedded in ::ffff:127\.0\.0\.1/],
  ['::ffff:10.0.0.1', /private/],
  ['2002:7f00:1::1', /loopback/], // 6to4 of 127.0.0.1
  ['2002:c0a8:101::1', /private/], // 6to4 of 192.168.1.1
  ['64:ff9b::a00:1', /private/], // NAT64 of 10.0.0.1
  ['64:ff9b::7f00:1', /loopback/], // NAT64 of 127.0.0.1
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', /teredo/],
  ['::7f00:1', /IPv4-compatible.*loopback/], // the deprecated IPv4-compatible form of 127.0.0.1
  ['::a9fe:a9fe', /link-local/], // … of 169.254.169.254
  ['::a00:1', /private/], // … of 10.0.0.1
  ['64:ff9b:1:7f00:0:100::', /local-use NAT64/], // 127.0.0.1 in the /48 layout of RFC 6052
  ['64:ff9b:1::5db8:d822', /local-use NAT64/],
  ['2001:db8::1', /reserved/],
];
export const PUBLIC = ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:93.184.216.34', '2002:5db8:d822::1', '::5db8:d822'];
