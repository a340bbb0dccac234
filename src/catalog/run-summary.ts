// A run's summary as `aop replay --list`, retention and the report read it: declared once, types only
// (the report page, which runs in a browser, builds its run rows on it).

export interface RunSummary {
  run_id: string;
  entries: number;
  errors: number;
  started_at: string | null;
  last_entry_at: string | null;
  dropped_entries: number;
  skipped_lines: number;
  /** Why the timeline was not read (`… [code]`), or null. Such a run has no counts and no times. */
  problem: string | null;
}
