import { storedAnswerOfBytes, type StoredAnswer } from './stored-answer.js';

/**
 * A stored answer as Redis holds it: `<storedAt> <ttlMs> <tag> <operation or -> <CDN tags,
 * comma-separated, or -> <deprecated coordinates, comma-separated, or ->\n<body>`: a few bytes of
 * bookkeeping in front of the answer's own (CDN tags and schema coordinates hold no space, comma or
 * newline). A node of an older version reads the first five fields and ignores the last; an entry
 * without it counts no deprecated use.
 */
export function encodeAnswer(answer: StoredAnswer): Buffer {
  const cdnTags = answer.cdnTags.length > 0 ? answer.cdnTags.join(',') : '-';
  const deprecated = answer.deprecatedUses?.length ? answer.deprecatedUses.join(',') : '-';
  return Buffer.concat([Buffer.from(`${answer.storedAt} ${answer.ttlMs} ${answer.tag} ${answer.operation ?? '-'} ${cdnTags} ${deprecated}\n`), answer.body]);
}

/** The answer of an entry {@link encodeAnswer} wrote; undefined for anything else. */
export function decodeAnswer(value: Buffer): StoredAnswer | undefined {
  const newline = value.indexOf(10);
  if (newline < 0) return undefined;
  const [storedAt, ttlMs, tag, operation, cdnTags, deprecated] = value.subarray(0, newline).toString().split(' ');
  const stamp = Number(storedAt);
  const ttl = Number(ttlMs);
  if (!Number.isFinite(stamp) || !Number.isFinite(ttl) || !tag) return undefined;
  return storedAnswerOfBytes(
    { body: value.subarray(newline + 1), tag },
    {
      storedAt: stamp,
      ttlMs: ttl,
      operation: operation && operation !== '-' ? operation : undefined,
      cdnTags: cdnTags && cdnTags !== '-' ? cdnTags.split(',') : [],
      deprecatedUses: deprecated && deprecated !== '-' ? deprecated.split(',') : undefined,
    },
  );
}
