// Hashes shortened for human output (`sha256:` + 12 hex digits + …); JSON output always carries them whole.

export function shortHash(hash: string | null): string {
  if (hash === null) return "none";
  return hash.length > 19 ? `${hash.slice(0, 19)}…` : hash;
}
