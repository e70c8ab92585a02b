import type { JsonSchema } from '../compile/field-types.ts';
import type { Resource } from '../definition/resource.ts';
import { EXAMPLE_BRAND } from './openapi-components.ts';
import { recordTypeName } from './record-type-name.ts';

/**
 * The code samples of every operation (`x-codeSamples`, which the reference
 * shows beside the operation): curl, the repository's TypeScript client, and
 * Python with `requests`. They are built here, from the family and the kind of
 * operation, for every family alike. Each reads the server's origin from
 * `API_URL` and the key from `API_KEY`, never from the sample, and asks for
 * the demo brand; a get asks for the demo record the document quotes.
 */

/** The kinds of operation a family has. */
export type OperationKind = 'brand' | 'list' | 'get' | 'counts' | 'changes';

interface SampleArgs {
  readonly resource: Resource;
  /** The API's base path, such as `/api/public/v1`. */
  readonly basePath: string;
  /** The id a get asks for. */
  readonly id: string;
}

interface KindSamples {
  /** The operation's path in the document, `{brand}` and `{id}` left as they are. */
  readonly path: (resource: Resource) => string;
  /** The query string of the curl sample (without `?`), if any. */
  readonly query?: (resource: Resource) => string;
  readonly typescript: (args: SampleArgs & { variable: string }) => string;
  readonly python: (args: SampleArgs & { url: string }) => string;
}

const TS_CLIENT = `import { createClient } from '@brand-catalog/client';

const catalog = createClient({ baseUrl: process.env.API_URL!, apiKey: process.env.API_KEY!, brand: '${EXAMPLE_BRAND}' });
`;

const PY_SESSION = (url: string) => `import os
import requests

session = requests.Session()
session.headers["Authorization"] = f"Bearer {os.environ['API_KEY']}"
url = f"{os.environ['API_URL']}${url}"
`;

const PY_GET = (url: string) => `${PY_SESSION(url)}
response = session.get(url, timeout=30)
response.raise_for_status()
print(response.json())
`;

/** Python's walk of pages: `loop` handles one page (indented), `last` runs on the last one. */
const PY_PAGES = ({ url, limit, first, loop, last = '' }: { url: string; limit: number; first: string; loop: string; last?: string }) => `${PY_SESSION(url)}${first}
while True:
    response = session.get(url, params=params, timeout=30)
    response.raise_for_status()
    page = response.json()
${loop}
    if page["nextCursor"] is None:
${last}        break
    params = {"limit": ${limit}, "cursor": page["nextCursor"]}
`;

const SAMPLES: Readonly<Record<OperationKind, KindSamples>> = {
  brand: {
    path: (resource) => `/${resource.path}/{brand}`,
    typescript: () => `${TS_CLIENT}
const brand = await catalog.getBrand();
console.log(brand);
`,
    python: ({ url }) => PY_GET(url),
  },
  list: {
    path: (resource) => `/brands/{brand}/${resource.path}`,
    query: () => 'limit=10',
    typescript: ({ resource, variable }) => `${TS_CLIENT}
// Every record, page after page: the client follows nextCursor.
for await (const ${variable} of catalog.list('${resource.path}', { limit: 100 })) {
  console.log(${variable}.id);
}
`,
    python: ({ url }) => PY_PAGES({
      url,
      limit: 100,
      first: 'params = {"limit": 100}',
      loop: '    for record in page["items"]:\n        print(record["id"])',
    }),
  },
  get: {
    path: (resource) => `/brands/{brand}/${resource.path}/{id}`,
    typescript: ({ resource, id, variable }) => `${TS_CLIENT}
const ${variable} = await catalog.get('${resource.path}', '${id}');
console.log(${variable});
`,
    python: ({ url }) => PY_GET(url),
  },
  counts: {
    path: (resource) => `/brands/{brand}/${resource.path}/counts`,
    query: (resource) => `by=${countedBy(resource)}`,
    typescript: ({ resource }) => `${TS_CLIENT}
// How many records have each value of ${countedBy(resource)} (the largest counts first).
const { counts, otherItems, totalItems } = await catalog.counts('${resource.path}', { by: '${countedBy(resource)}' });
for (const { value, count } of counts) console.log(value, count);
console.log({ otherItems, totalItems });
`,
    python: ({ url, resource }) => `${PY_SESSION(url)}
response = session.get(url, params={"by": "${countedBy(resource)}"}, timeout=30)
response.raise_for_status()
body = response.json()
for entry in body["counts"]:
    print(entry["value"], entry["count"])
print(body["otherItems"], body["totalItems"])
`,
  },
  changes: {
    path: (resource) => `/brands/{brand}/${resource.path}/changes`,
    query: () => 'limit=100',
    typescript: ({ resource }) => `${TS_CLIENT}
let syncToken: string | null = null; // the token saved after the last batch; null for a full sync
const batch = catalog.changes('${resource.path}', { syncToken });
for await (const item of batch) {
  if (item.change === 'upsert') console.log('upsert', item.id, item.record);
  else console.log('delete', item.id);
}
syncToken = batch.syncToken; // save it once the batch is applied
`,
    python: ({ url }) => PY_PAGES({
      url,
      limit: 1000,
      first: 'sync_token = None  # the token saved after the last batch; None for a full sync\nparams = {"limit": 1000, "syncToken": sync_token}',
      loop: '    for item in page["items"]:\n        print(item["change"], item["id"])',
      last: '        sync_token = page["syncToken"]  # save it once the batch is applied\n',
    }),
  },
};

/** The field a counts sample counts by: the family's first countable one. */
const countedBy = (resource: Resource): string => resource.countable[0]?.name ?? '';

/** `/brands/{brand}/x/{id}` with the demo brand and the id filled in. */
function filledPath({ path, id }: { path: string; id: string }): string {
  return path.replace('{brand}', EXAMPLE_BRAND).replace('{id}', id);
}

/** The `x-codeSamples` of one operation of a family: curl, TypeScript and Python, in that order. */
export function codeSamples(kind: OperationKind, args: SampleArgs): JsonSchema[] {
  const samples = SAMPLES[kind];
  const url = `${args.basePath}${filledPath({ path: samples.path(args.resource), id: args.id })}`;
  const typeName = recordTypeName(args.resource.path);
  const variable = typeName.charAt(0).toLowerCase() + typeName.slice(1);
  return [
    {
      lang: 'Shell',
      label: 'curl',
      source: `curl -s "$API_URL${url}${samples.query === undefined ? '' : `?${samples.query(args.resource)}`}" \\\n  -H "Authorization: Bearer $API_KEY"\n`,
    },
    { lang: 'TypeScript', label: 'TypeScript client', source: samples.typescript({ ...args, variable }) },
    { lang: 'Python', label: 'Python (requests)', source: samples.python({ ...args, url }) },
  ];
}

/** Where a get's sample asks for a record the document has no example of. */
const SAMPLE_ID_PLACEHOLDER = '<id>';

/**
 * The family's operations (as `familyPaths` and `changesPaths` build them),
 * each given its code samples: the kind of each path is found by its place
 * in the family, so no path goes without samples unnoticed (a test checks
 * every operation of the document has them).
 */
export function withCodeSamples(paths: JsonSchema, { resource, basePath, exampleId }: { resource: Resource; basePath: string; exampleId: string | undefined }): JsonSchema {
  const kinds = Object.entries(SAMPLES).map(([kind, samples]) => [samples.path(resource), kind as OperationKind] as const);
  return Object.fromEntries(Object.entries(paths).map(([path, item]) => {
    const kind = kinds.find(([kindPath]) => kindPath === path)?.[1];
    if (kind === undefined) throw new Error(`${resource.path}: no code samples for ${path}`);
    const { get } = item as { get: JsonSchema };
    const samples = codeSamples(kind, { resource, basePath, id: exampleId ?? SAMPLE_ID_PLACEHOLDER });
    return [path, { ...(item as JsonSchema), get: { ...get, 'x-codeSamples': samples } }];
  }));
}
