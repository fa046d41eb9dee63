/** A one-line progress bar on a TTY stream, redrawn at most ten times a second; `done()` clears it. */
export function progressBar(stream: NodeJS.WriteStream): { update(done: number, total: number): void; done(): void } {
  let last = 0;
  let shown = false;
  return {
    update(done, total) {
      const now = Date.now();
      if (now - last < 100 || total === 0) return;
      last = now;
      shown = true;
      const share = Math.min(1, done / total);
      const width = 30;
      const filled = Math.round(share * width);
      const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
      stream.write(
        `\ranalyzing [${"#".repeat(filled)}${" ".repeat(width - filled)}] ${Math.round(share * 100)}% ${megabytes(done)}/${megabytes(total)} MB`,
      );
    },
    done() {
      if (shown) stream.write("\r\u001b[2K");
    },
  };
}
