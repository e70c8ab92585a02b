/** What `npm run bench:growth` is asked: the result files, and where to write the plot (null: nowhere). */
export interface GrowthArgs {
  readonly files: readonly string[];
  readonly svgFile: string | null;
}

/**
 * Reads `<result.json>... [--svg <file>]`; null when no result file is given
 * or `--svg` names no file. Every argument but `--svg` and the one after it
 * is a result file.
 */
export function parseGrowthArgs(args: readonly string[]): GrowthArgs | null {
  const svgAt = args.indexOf('--svg');
  const svgFile = svgAt >= 0 ? args[svgAt + 1] ?? null : null;
  const files = svgAt >= 0 ? args.filter((_arg, i) => i !== svgAt && i !== svgAt + 1) : [...args];
  if (files.length === 0 || (svgAt >= 0 && svgFile === null)) return null;
  return { files, svgFile };
}
