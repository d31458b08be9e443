/** Host names as a `Host` header carries them: the bare name, and whether it is loopback. */

/** The host name of a `Host` header value, without port and IPv6 brackets, lower case. */
export function hostName(host: string): string {
  const name = host.startsWith("[") ? host.slice(1, host.indexOf("]")) : host.split(":")[0];
  return name.toLowerCase().replace(/\.$/, "");
}

/** Whether a host name is a loopback name: localhost, *.localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackName(name: string): boolean {
  return name === "localhost" || name.endsWith(".localhost") || name === "::1" ||
    /^127(\.\d{1,3}){3}$/.test(name);
}
