import { expect } from 'chai';
import { parseExportArgs, UsageError } from '../../../tools/export/export-args.ts';

/** The message of the usage error `parseExportArgs` throws for `argv`; fails the test when it throws none, or another error. */
export function usageError(argv: string[]): string {
  try {
    parseExportArgs(argv);
  } catch (error) {
    expect(error).to.be.instanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`expected a usage error for: ${argv.join(' ')}`);
}
