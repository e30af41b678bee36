/** Reading IP addresses as numbers, for the rules that judge or group them. Pure. */

/** An IPv4 address (dotted quad) as a 32-bit number. */
export function v4Number(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

/**
 * The eight 16-bit groups of an address `net.isIP` accepts as IPv6, `::` expanded and an embedded
 * IPv4 tail (`::ffff:1.2.3.4`) split into its two groups.
 */
export function v6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const v4 = text.match(/(\d+\.\d+\.\d+\.\d+)$/)?.[1];
  if (v4) {
    const n = v4Number(v4);
    text = `${text.slice(0, -v4.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parts = (s: string) => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)));
  const front = parts(head);
  const back = tail === undefined ? [] : parts(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}
