/**
 * The default public base URL: the address the service listens on, as a browser on this machine
 * reaches it (`0.0.0.0` and `::` mean every interface: `localhost`).
 */
export function listeningBaseUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}
