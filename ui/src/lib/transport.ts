// Whether an API key sent to a base URL crosses the network unencrypted: plain http to
// anything but this machine. Mirrors ponder-core's `key_travels_in_clear`.

export function keyTravelsInClear(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:') return false;
  const host = parsed.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (host === '') return true;
  if (host === 'localhost' || host.endsWith('.localhost')) return false;
  if (host === '::1' || /^0*:(0*:)*0*1$/.test(host)) return false;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return !host.startsWith('127.');
  return true;
}
