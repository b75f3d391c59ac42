/**
 * A Server-Timing header as a map of its metrics (name → duration in ms and description), e.g.
 * `board;desc="computed";dur=31.2, sums;dur=12.0` → board: { ms: 31.2, desc: "computed" }, ….
 */
export function parseServerTiming(
  header: string | null,
): Map<string, { ms: number; desc: string }> {
  const metrics = new Map<string, { ms: number; desc: string }>();
  for (const metric of (header ?? "").split(",")) {
    const [name, ...params] = metric.split(";").map((part) => part.trim());
    if (!name) continue;
    let ms = 0;
    let desc = "";
    for (const param of params) {
      const [key, value = ""] = param.split("=");
      if (key === "dur") ms = Number(value);
      if (key === "desc") desc = value.replace(/^"|"$/g, "");
    }
    metrics.set(name, { ms, desc });
  }
  return metrics;
}
