// Types of scripts/parity/checkpoint-parity.mjs for the differential test that replays its fixtures.
export interface ValidateVerdict {
  exit: number | null;
  strict_exit: number | null;
  files: Record<string, { errors: number; warnings: number }>;
}
export interface DoneVerdict {
  exit: number;
  next_actions: number | null;
  recently_done: number | null;
  done_action: unknown;
}
export interface CheckpointVerdict {
  validate: ValidateVerdict;
  next: { skill: string | null; action?: string | null; crash?: boolean };
  status: { listed: number; decisions: string[]; stale: string[]; crash?: boolean };
  done?: DoneVerdict;
}
export interface CheckpointCase {
  name: string;
  files: Record<string, string>;
  done?: string;
  reference: CheckpointVerdict;
}
export declare const FIXTURE: string;
export declare function materialize(files: Record<string, string>): string;
export declare function referenceVerdicts(script: string, c: Omit<CheckpointCase, "reference">): CheckpointVerdict;
export declare function aopVerdicts(c: Omit<CheckpointCase, "reference">): Promise<CheckpointVerdict>;
export declare function differences(reference: CheckpointVerdict, aop: CheckpointVerdict): string[];
export declare function pool<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]>;
