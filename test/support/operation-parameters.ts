/** An OpenAPI parameter as a test reads it. */
export interface DocumentParameter {
  readonly name?: string;
  readonly description?: string;
  readonly schema?: { readonly format?: string };
}

/**
 * The parameters of an operation of an OpenAPI document, each shared one
 * (`$ref: '#/components/parameters/<Name>'`) as its component declares it.
 */
export function operationParameters(doc: any, path: string, method = 'get'): DocumentParameter[] {
  const declared = (doc.paths[path]?.[method]?.parameters ?? []) as ({ $ref?: string } & DocumentParameter)[];
  return declared.map((parameter) => {
    if (!parameter.$ref) return parameter;
    const resolved = doc.components?.parameters?.[parameter.$ref.replace('#/components/parameters/', '')] as DocumentParameter | undefined;
    if (!resolved) throw new Error(`${path}: no parameter component ${parameter.$ref}`);
    return resolved;
  });
}
