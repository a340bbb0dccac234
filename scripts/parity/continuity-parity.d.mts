// Types of scripts/parity/continuity-parity.mjs for the differential test that replays its fixtures.
export type ContinuityFile = string | { base64: string } | { dir: true };
export interface ContinuityCase {
  name: string;
  files: Record<string, ContinuityFile>;
  hours?: Record<string, number>;
  transcripts?: Record<string, number>;
  reference: ReferenceVerdict;
}
export type ReferenceVerdict = { exit: number; findings: string[]; crash?: undefined } | { crash: string };
export interface AopVerdict {
  exit: number | null;
  findings: string[] | null;
  stack_trace: boolean;
}
export declare const FIXTURE: string;
export declare function referenceVerdict(script: string, c: Omit<ContinuityCase, "reference">): ReferenceVerdict;
export declare function aopVerdict(c: Omit<ContinuityCase, "reference">): Promise<AopVerdict>;
export declare function differences(reference: ReferenceVerdict, aop: AopVerdict): string[];
