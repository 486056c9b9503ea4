// Preloaded into a measured process: reports its peak RSS and CPU time on exit, on stderr, as one JSON line.
process.on("exit", () => {
  const u = process.resourceUsage();
  process.stderr.write(`\n@@bench ${JSON.stringify({ maxRssKb: u.maxRSS, cpuUs: u.userCPUTime + u.systemCPUTime })}\n`);
});
