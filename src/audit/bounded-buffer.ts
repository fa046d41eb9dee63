/** Collects output up to `limit` bytes and counts what it dropped (hook stdout/stderr must not grow unbounded). */
export function boundedBuffer(limit: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  let dropped = 0;
  return {
    push(chunk: Buffer) {
      const room = limit - size;
      if (room <= 0) {
        dropped += chunk.length;
        return;
      }
      const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
      chunks.push(kept);
      size += kept.length;
      dropped += chunk.length - kept.length;
    },
    text(): string {
      const text = Buffer.concat(chunks).toString("utf8");
      return dropped > 0 ? `${text}… [${dropped} more bytes dropped]` : text;
    },
  };
}
