/**
 * This device's localStorage, or undefined where there is none or the browser blocks it (a
 * privacy setting, a sandboxed frame): what is kept there is a convenience, never required.
 */
export function localStore(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}
