/** The header bar over every page, and the guides' articles. */
export const DOCS_CSS = `:root { --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --accent: #0b5cad; --bar: #1b2330; }
body { margin: 0; color: var(--ink); font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
.docs-bar { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.5rem 1.5rem;
  padding: 0.75rem 1.5rem; background: var(--bar); }
.docs-bar a { color: #e6edf3; text-decoration: none; }
.docs-bar a:hover, .docs-bar a:focus-visible { text-decoration: underline; }
.docs-bar-name { font-weight: 600; font-size: 1.1rem; }
.docs-bar nav { display: flex; gap: 1.25rem; font-size: 0.95rem; }
.docs-bar nav a[aria-current="page"] { color: #fff; font-weight: 600; border-bottom: 2px solid #7cc4ff; }
.docs-noscript { max-width: 46rem; margin: 2rem auto; padding: 0 1.5rem; }
.docs-article { max-width: 46rem; margin: 0 auto; padding: 1.5rem 1.5rem 4rem; }
.docs-article h1 { font-size: 2rem; margin: 0.5rem 0 1rem; }
.docs-article h2 { font-size: 1.35rem; margin: 2rem 0 0.5rem; padding-bottom: 0.25rem; border-bottom: 1px solid var(--line); }
.docs-article a { color: var(--accent); }
.docs-article code { font: 0.875em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f0f3f6;
  padding: 0.1em 0.3em; border-radius: 4px; }
.docs-article pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem 1rem; overflow-x: auto; }
.docs-article pre code { background: none; padding: 0; }
.docs-article table { border-collapse: collapse; margin: 0.75rem 0; font-size: 0.95rem; }
.docs-article th, .docs-article td { border: 1px solid var(--line); padding: 0.3rem 0.6rem; text-align: left; vertical-align: top; }
.docs-article th { background: #f6f8fa; }
.docs-article li { margin: 0.2rem 0; }
/* The reference: the bar stays on top, Scalar's sticky sidebar and panels start under it, in the system fonts. */
.docs-reference { --scalar-custom-header-height: 3.25rem;
  --scalar-font: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  --scalar-font-code: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.docs-reference .docs-bar { position: sticky; top: 0; z-index: 1000; box-sizing: border-box; height: 3.25rem; flex-wrap: nowrap; }
`;
