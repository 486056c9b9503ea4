// Preloaded into a measured process: reports its peak RSS on exit, on stderr, as one JSON line.
process.on("exit", () => {
  process.stderr.write(`\n@@bench ${JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS })}\n`);
});
