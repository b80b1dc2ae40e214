/**
 * SHA-256 of a text as lower-case hex, with WebCrypto (browsers and Node ≥ 19), so that no hashing
 * library ships to the browser. Null where WebCrypto is missing: browsers offer it only in secure
 * contexts (https, localhost).
 */
export async function sha256Hex(text: string): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  try {
    const digest = await subtle.digest('SHA-256', new TextEncoder().encode(text));
    return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
  } catch {
    // A crypto object that refuses (a stub, a locked-down embed): the same as none.
    return null;
  }
}
