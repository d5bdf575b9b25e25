/** Entity tags: every GET response carries one; If-None-Match and If-Match compare against it. */
import { hash } from 'node:crypto';

export function etagOf(body: string): string {
  return `"${hash('sha256', body, 'base64url').slice(0, 32)}"`;
}

/**
 * RFC 9110 list matching: If-None-Match uses weak comparison (W/ ignored), If-Match strong
 * comparison (a weak tag never matches).
 */
export function etagMatches(header: string, etag: string, comparison: 'weak' | 'strong' = 'weak'): boolean {
  const normalise = (tag: string) => (comparison === 'weak' ? tag.trim().replace(/^W\//, '') : tag.trim());
  return header.split(',').some((candidate) => candidate.trim() === '*' || normalise(candidate) === normalise(etag));
}
