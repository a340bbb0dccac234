// Human renderings of instants and durations ("5m ago", "1.2s"). Pure.

export function formatAge(ms: number): string {
  const abs = Math.abs(ms);
  const s = Math.round(abs / 1000);
  let text: string;
  if (s < 60) text = `${s}s`;
  else if (s < 3600) text = `${Math.floor(s / 60)}m`;
  else if (s < 86400) text = `${Math.floor(s / 3600)}h`;
  else text = `${Math.floor(s / 86400)}d`;
  return ms < 0 ? `in ${text}` : `${text} ago`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  return `${Math.floor(ms / 60_000)}m${Math.round((ms % 60_000) / 1000)}s`;
}
